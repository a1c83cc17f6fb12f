import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community';
import { App } from './App';
import { ApiProvider } from './api/ApiProvider';
import { pageBridge } from './api/page-bridge';
import { ErrorBoundary } from './status/ErrorBoundary';
import { installLastResort } from './status/last-resort';
import './styles.css';

// All of Community: the infinite row model plus tooltips, cell classes, column moving and resizing.
ModuleRegistry.registerModules([AllCommunityModule]);

installLastResort(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary what="The window">
      <ApiProvider api={pageBridge()}>
        <App />
      </ApiProvider>
    </ErrorBoundary>
  </StrictMode>,
);
