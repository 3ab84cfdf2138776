// Lint rules for the whole repo. Kept under .ci/ because the repo's top level is fixed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Only these files may touch Electron: everything else must load under plain Node (CLI, tests, serve).
const electronEdges = ['electron/main.ts', 'electron/preload.ts', 'electron/window.ts', 'electron/tray.ts', 'electron/security.ts'];
const electronOnly = {
  paths: [{ name: 'electron', message: 'Only electron/{main,preload,window,tray,security}.ts may import electron; pass what you need in.' }],
  patterns: [{ group: ['electron/*'], message: 'Only the Electron edge files may import electron.' }],
};

// The room order (docs/ARCHITECTURE.md): arrows go down, never up. Flat config lets one rule of a name per
// file win, so each room's block carries the Electron rule too. `up` is how many `../` lead to electron/.
const composition = ['core', 'sandbar-app', 'cli', 'main', 'backend-choice'];
const surfaces = ['mcp', 'control', 'cli', 'http', 'shell'];
const dots = (up) => '\\.\\./'.repeat(up);
const roomsRegex = (up, rooms) => `^${dots(up)}(${rooms.join('|')})/`;
const filesRegex = (up, files) => `^${dots(up)}(${files.join('|')})\\.js$`;
function room(files, forbidden) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { paths: electronOnly.paths, patterns: [...electronOnly.patterns, ...forbidden] }] },
  };
}
const below = (message, up, rooms, roots = []) => [
  ...(rooms.length ? [{ regex: roomsRegex(up, rooms), message }] : []),
  ...(roots.length ? [{ regex: filesRegex(up, roots), message }] : []),
];
const notRooms = ['health', 'settings', 'runs', 'sessions', 'packages', 'proxy', 'history', 'mcp', 'control', ...surfaces];
const sandboxMessage = 'sandbox/ is the engine and its backends: it imports none of the rooms above it (shared/ and its own files only).';
const wingMessage = 'A backend wing imports the top of sandbox/, run/ and agent/, never another backend.';

const roomOrder = [
  room(['electron/runs/**/*.ts'], below('runs/ is the use case: no surface (MCP, control, CLI, HTTP, shell) and no composition root imports into it.', 1, surfaces, composition)),
  room(['electron/mcp/**/*.ts'], below('mcp/ is a surface: it knows runs/, never the composition root (core.ts, sandbar-app.ts).', 1, [], composition)),
  room(['electron/settings/**/*.ts'], below('settings/ is read by the engine\'s composer, not the other way: it imports nothing of sandbox/.', 1, ['sandbox'])),
  room(['electron/sandbox/*.ts'], [
    ...below(sandboxMessage, 1, notRooms, composition),
    { regex: '^\\./(cli|kubernetes)/', message: 'The top of sandbox/ (engine, pool, backend contract) imports no backend wing: backends come in through SandboxBackend.' },
  ]),
  room(['electron/sandbox/cli/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\./kubernetes/', message: wingMessage }]),
  room(['electron/sandbox/kubernetes/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\./cli/', message: wingMessage }]),
  room(['electron/sandbox/run/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\./(cli|kubernetes)/', message: 'run/ is one run whatever the backend: it imports no backend wing.' }]),
  room(['electron/sandbox/agent/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\./(cli|kubernetes|run)/', message: 'agent/ is the sandbox side of the protocol: it imports no other wing.' }]),
];

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
    rules: { 'no-restricted-imports': ['error', electronOnly] },
  },
  ...roomOrder,
  {
    // One module starts runs: every surface goes through runs/ (RunService), which alone calls the engine's submit.
    files: ['electron/**/*.ts'],
    ignores: ['electron/runs/**', 'electron/sandbox/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name='submit'][callee.object.name='engine'], CallExpression[callee.property.name='submit'][callee.object.property.name='engine']",
        message: 'Start runs through RunService (electron/runs/), the only caller of engine.submit outside sandbox/.',
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
