import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './build/lint/layers.js';
import gridMarkup from './build/lint/grid-markup.js';
import plainErrors from './build/lint/plain-errors.js';

// The layering rules of docs/ARCHITECTURE.md: every import resolved and checked against one allow-table.
const nodeGlobals = [
  'Buffer',
  'process',
  'global',
  '__dirname',
  '__filename',
  'require',
  'module',
  'exports',
  'setImmediate',
  'clearImmediate',
].map((name) => ({ name, message: 'core/ and renderer/ run in a browser too: no Node globals.' }));

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'release', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { layers },
    rules: { 'layers/imports': 'error' },
  },
  {
    // A state the user can cause throws the layer's typed error (its message is theirs): a ServiceError with a
    // kind in services/ (services/errors.ts), a SettingError or a ServiceError with a status in server/, a
    // RecordTableError or a FormulaCostError in core/. A plain Error is a bug, logged as one: no file makes
    // one (thrown, kept or passed as a value) but core/invariant.ts (build/lint/plain-errors.js).
    files: ['{core,server,services,host,electron}/**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['core/invariant.ts'],
    plugins: { errors: plainErrors },
    rules: { 'errors/plain': 'error' },
  },
  {
    // ag-grid's markup is read in renderer/src/grid/ alone (grid/dom.ts). The end-to-end specs (test/e2e) and
    // the benches keep their ag-grid selectors: they check what the user sees, so the grid's markup changing
    // under them should fail there, in sight, not be hidden behind the app's own words for it.
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/src/grid/**'],
    plugins: { grid: gridMarkup },
    rules: { 'grid/markup': 'error' },
  },
  {
    files: ['core/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-globals': ['error', ...nodeGlobals] },
  },
  {
    // The page's bridge is read in one place (renderer/src/api/page-bridge.ts, which only main.tsx imports).
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/src/api/page-bridge.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'tabledesk',
          message: 'Reach the services through useApi() (React) or the api a module is given.',
        })),
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
);
