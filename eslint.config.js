import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './build/lint/layers.js';

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
    files: ['core/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-globals': ['error', ...nodeGlobals] },
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
