/**
 * electron-vite builds the main process (ESM, out/main) and the preload (one CommonJS file, out/preload:
 * a sandboxed preload can neither load ES modules nor require anything but `electron`). The renderer is built
 * by its own config (renderer/vite.config.ts, into out/renderer), the same build both doors serve.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'electron/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
});
