import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The layering rules of docs/ARCHITECTURE.md, enforced on imports.
const nodeBuiltins = {
  group: ['node:*'],
  message: 'core/ and renderer/ must run in a browser: no Node built-ins.',
};
const outer = (folders) => ({
  group: folders.flatMap((f) => [`../${f}/*`, `../../${f}/*`, `../../../${f}/*`]),
  message: 'This import goes against the layering in docs/ARCHITECTURE.md.',
});

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
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            nodeBuiltins,
            { group: ['electron', 'react', 'react-dom'], message: 'core/ runs anywhere.' },
            outer(['server', 'services', 'electron', 'host', 'renderer']),
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [outer(['services', 'electron', 'host', 'renderer'])] }],
    },
  },
  {
    files: ['services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['electron'], patterns: [outer(['electron', 'host', 'renderer'])] },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { paths: ['electron'], patterns: [nodeBuiltins, outer(['server', 'services', 'electron', 'host'])] },
      ],
    },
  },
);
