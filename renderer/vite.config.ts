import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is plain static files: both doors (Electron's custom protocol, the host's HTTP server) serve
// out/renderer as is, so asset URLs stay relative.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    // ag-grid alone is over the default 500 kB warning; the app loads from disk, not the network.
    chunkSizeWarningLimit: 2000,
  },
});
