import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './build/lint/layers.js';
import gridMarkup from './build/lint/grid-markup.js';
import plainErrors from './build/lint/plain-errors.js';
import indexFiles from './build/lint/index-files.js';

// The layering rules of docs/ARCHITECTURE.md: every import resolved and checked against one allow-table.
const NODE_GLOBALS = [
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
];
const NO_NODE = 'core/ and renderer/ run in a browser too: no Node globals.';
const nodeGlobals = NODE_GLOBALS.map((name) => ({ name, message: NO_NODE }));
// The same globals reached as properties of the global object (`globalThis.process`, `window.Buffer`, …).
const nodeGlobalProperties = ['globalThis', 'window', 'self', 'global'].flatMap((object) =>
  NODE_GLOBALS.map((property) => ({ object, property, message: NO_NODE })),
);
// The page's bridge is read in one place (renderer/src/api/page-bridge.ts, which only main.tsx imports).
const bridgeProperties = ['window', 'globalThis', 'self'].map((object) => ({
  object,
  property: 'tabledesk',
  message: 'Reach the services through useApi() (React) or the api a module is given.',
}));

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
    // A folder's index names its surface and holds no code (build/lint/index-files.js).
    files: ['**/index.{ts,tsx,js,mjs,cjs}'],
    plugins: { index: indexFiles },
    rules: { 'index/reexports-only': 'error' },
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
    files: ['core/**/*.{ts,tsx,js,mjs,cjs}', 'renderer/**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['renderer/vite.config.ts'],
    rules: {
      'no-restricted-globals': ['error', ...nodeGlobals],
      'no-restricted-properties': ['error', ...nodeGlobalProperties],
      // A Node global declared by hand (`declare const process: …`) would pass the two rules above and the
      // renderer's typecheck, and be undefined in the page.
      'no-restricted-syntax': [
        'error',
        {
          selector: `:matches(VariableDeclaration[declare=true], TSModuleDeclaration[kind='global'] VariableDeclaration) > VariableDeclarator > Identifier.id[name=/^(${NODE_GLOBALS.join('|')})$/]`,
          message: NO_NODE,
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['renderer/src/api/page-bridge.ts', 'renderer/vite.config.ts'],
    rules: { 'no-restricted-properties': ['error', ...nodeGlobalProperties, ...bridgeProperties] },
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
