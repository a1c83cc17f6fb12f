import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiProvider } from './api/ApiProvider';
import { registerGridModules } from './grid/modules';
import { pageBridge } from './api/page-bridge';
import { ErrorBoundary } from './status/ErrorBoundary';
import { installLastResort } from './status/last-resort';
import './styles.css';

registerGridModules();

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
