/**
 * electron-vite builds the main process (ESM, out/main) and the preload (one CommonJS file, out/preload:
 * a sandboxed preload can neither load ES modules nor require anything but `electron`). The renderer is built
 * by its own config (renderer/vite.config.ts, into out/renderer), the same build both doors serve.
 *
 * Main leaves package.json's `dependencies` external: the installer ships them (electron-builder packs exactly
 * that set) and Node's ES module loader loads them at run time, which resolves only what a package exports
 * and guesses no file extension. Everything else is bundled, so a package that is not safe for that loader
 * belongs in devDependencies: dayjs, whose plugins and locales are reached by extensionless deep paths
 * (`dayjs/plugin/utc`) in a package with no `exports` map. Importing them with `.js` instead would tie
 * core/ (shared with the renderer) to one loader's rules; bundling keeps the source as every tool reads it.
 * test/integration/electron/main-bundle.test.ts loads the built bundle the way Electron does.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'electron/entry.ts'),
          // The installed app's demo server runs in this worker thread (services/embedded-server/worker-runner.ts).
          'embedded-worker': resolve(import.meta.dirname, 'services/embedded-server/worker.ts'),
        },
        // Beside the entries, not in chunks/: main.ts finds the preload, the renderer and the worker from its own URL.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
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
