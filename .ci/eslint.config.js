// Lint rules for the whole repo. Kept under .ci/ because the repo's top level is fixed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Only these files may touch Electron: everything else must load under plain Node (CLI, tests, serve).
const electronEdges = ['electron/main.ts', 'electron/preload.ts', 'electron/window.ts', 'electron/tray.ts', 'electron/security.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'coverage/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      // Timers assigned after the closures that clear them are declared first on purpose.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'test/**/*.ts'],
    ignores: electronEdges,
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only electron/{main,preload,window,tray,security}.ts may import electron; pass what you need in.' }],
        patterns: [{ group: ['electron/*'], message: 'Only the Electron edge files may import electron.' }],
      }],
    },
  },
  {
    // The panel runs in a browser (or Electron's sandboxed renderer): no Node, no Electron, only the contract.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    // The build config runs under Node.
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The panel talks to the main process through renderer/api only.' }],
        patterns: [
          { group: ['node:*'], message: 'The panel runs in a browser: no Node built-ins.' },
          { group: ['**/electron/**', '!**/shared/**'], message: 'The panel may import shared/ but never electron/.' },
        ],
      }],
    },
  },
  {
    files: ['test/unit/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Plain JavaScript run by Node (test fixtures such as the stub MCP server, this config).
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // The CLI and the tests print to stdout on purpose.
    files: ['electron/cli.ts', 'electron/cli/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
