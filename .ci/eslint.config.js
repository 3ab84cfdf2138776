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

// The room order (docs/ARCHITECTURE.md): arrows go down, never up. One block per folder under electron/
// (and one for the small shared files at its top). Flat config lets one rule of a name per file win, so each
// room's block carries the Electron rule and the engine.submit rule too. Dynamic import() is checked as well
// (no-restricted-imports sees only static imports), through no-restricted-syntax.
const composition = ['core', 'sandbar-app', 'cli', 'cli-main', 'compile-cache', 'main', 'backend-choice'];
const surfaces = ['mcp', 'control', 'cli', 'http', 'shell'];
const services = ['proxy', 'sessions', 'packages', 'history', 'health', 'clients', 'egress'];
const everyRoom = [...surfaces, 'runs', ...services, 'sandbox', 'settings'];
const helpers = ['logger', 'log-file', 'asset-path', 'package-info', 'instance-file', 'loopback-http', 'lean-heap'];
const up = (n) => (n === 'any' ? '(\\.\\.\\/)+' : n === 0 ? '\\.\\/' : '(\\.\\.\\/)'.repeat(n));
/** Forbidden imports: `rooms` (folders) and `files` (top-level files) reached `depth` folders up ('any' for a room whose files sit at several depths). */
const below = (message, depth, rooms, files = []) => [
  ...(rooms.length ? [{ regex: `^${up(depth)}(${rooms.join('|')})\\/`, message }] : []),
  ...(files.length ? [{ regex: `^${up(depth)}(${files.join('|')})\\.js$`, message }] : []),
];
const submitSelector = "CallExpression[callee.property.name='submit'][callee.object.name='engine'], CallExpression[callee.property.name='submit'][callee.object.property.name='engine']";
const submitRule = { selector: submitSelector, message: 'Start runs through RunService (electron/runs/), the only caller of engine.submit outside sandbox/.' };
// Backends describe themselves (BackendFeatures, health facts): outside a backend's own wing nobody tests
// which backend it is, by class, by a name compared or switched on, or by an isKubernetes-style helper.
const backendMessage = 'Ask the backend what it supports (backend.features, its health facts) instead of testing which backend it is; only its own folder under sandbox/ may.';
const backendNames = '/^(podman|docker|kubernetes)$/';
const backendRules = [
  { selector: "BinaryExpression[operator='instanceof'][right.name=/Backend$/]", message: backendMessage },
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${backendNames}]`, message: backendMessage },
  { selector: `SwitchCase > Literal[value=${backendNames}]`, message: backendMessage },
  { selector: 'Identifier[name=/^is(Kubernetes|Podman|Docker|Cli)(Backend)?$/]', message: backendMessage },
];
function room(files, forbidden, { mayCallSubmit = false, ownBackend = false } = {}) {
  const dynamic = forbidden.map((f) => ({ selector: `ImportExpression[source.value=/${f.regex}/]`, message: f.message }));
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { paths: electronOnly.paths, patterns: [...electronOnly.patterns, ...forbidden] }],
      'no-restricted-syntax': ['error', ...(mayCallSubmit ? [] : [submitRule]), ...(ownBackend ? [] : backendRules), ...dynamic],
    },
  };
}
const notRooms = ['health', 'settings', 'runs', 'sessions', 'packages', 'proxy', 'history', 'mcp', 'control', 'clients', 'egress', ...surfaces];
const sandboxMessage = 'sandbox/ is the engine and its backends: it imports none of the rooms above it (shared/ and its own files only).';
const wingMessage = 'A backend wing imports the top of sandbox/, run/ and agent/, never another backend.';
const serviceMessage = (name) => `${name}/ is a service under runs/: it imports no surface (MCP, control, CLI, HTTP, shell), not runs/, and no composition file.`;

const roomOrder = [
  // Surfaces: each turns its input into a RunRequest and its output into its own shape.
  room(['electron/mcp/**/*.ts'], below('mcp/ is a surface: it knows runs/, never the composition root (core.ts, sandbar-app.ts, cli.ts, main.ts, backend-choice.ts) nor the CLI or the Electron shell.', 'any', ['cli', 'shell'], composition)),
  room(['electron/control/**/*.ts'], below('control/ is the panel\'s API: it imports no other surface (MCP, CLI, HTTP, shell) and no composition file.', 'any', ['mcp', 'cli', 'http', 'shell'], composition)),
  room(['electron/http/**/*.ts'], below('http/ is the one loopback listener: it may know control/\'s types, never MCP, the CLI, the shell or a composition file.', 'any', ['mcp', 'cli', 'shell'], composition)),
  room(['electron/shell/**/*.ts'], below('shell/ holds the pure parts of the Electron edge: no MCP, no CLI, no composition file.', 'any', ['mcp', 'cli'], composition)),
  // cli/ assembles the app for the command line (it may load core.ts and sandbar-app.ts), never the Electron side.
  room(['electron/cli/**/*.ts'], below('cli/ is the command line: it may assemble the app (core.ts, sandbar-app.ts) but never loads the Electron side (main.ts, shell/) or the entry point (cli.ts, cli-main.ts).', 'any', ['shell'], ['main', 'cli', 'cli-main'])),
  // The use case.
  room(['electron/runs/**/*.ts'], below('runs/ is the use case: no surface (MCP, control, CLI, HTTP, shell) and no composition root imports into it.', 'any', surfaces, composition), { mayCallSubmit: true }),
  // Services under the use case.
  ...services.map((name) => room([`electron/${name}/**/*.ts`], below(serviceMessage(name), 'any', [...surfaces, 'runs'], composition))),
  room(['electron/settings/**/*.ts'], below('settings/ is read by everything above it and imports none of it (not sandbox/: the engine\'s composer reads settings, not the other way).', 'any', everyRoom.filter((r) => r !== 'settings'), composition)),
  // The small files at the top of electron/ that every room may use (logger, paths, package facts).
  room(helpers.map((h) => `electron/${h}.ts`), below('The shared helpers at the top of electron/ import no room and no composition file: every room may use them.', 0, everyRoom, composition)),
  // The engine and its wings.
  room(['electron/sandbox/*.ts'], [
    ...below(sandboxMessage, 1, notRooms, composition),
    { regex: '^\\.\\/(cli|kubernetes)\\/', message: 'The top of sandbox/ (engine, pool, backend contract) imports no backend wing: backends come in through SandboxBackend.' },
  ], { mayCallSubmit: true }),
  room(['electron/sandbox/cli/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\.\\/kubernetes\\/', message: wingMessage }], { mayCallSubmit: true, ownBackend: true }),
  room(['electron/sandbox/kubernetes/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\.\\/cli\\/', message: wingMessage }], { mayCallSubmit: true, ownBackend: true }),
  room(['electron/sandbox/run/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\.\\/(cli|kubernetes)\\/', message: 'run/ is one run whatever the backend: it imports no backend wing.' }], { mayCallSubmit: true }),
  room(['electron/sandbox/agent/**/*.ts'], [...below(sandboxMessage, 2, notRooms, composition), { regex: '^\\.\\.\\/(cli|kubernetes|run)\\/', message: 'agent/ is the sandbox side of the protocol: it imports no other wing.' }], { mayCallSubmit: true }),
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
  {
    // One module starts runs: every surface goes through runs/ (RunService), which alone calls the engine's submit.
    // Nor does any file outside a backend's wing test which backend it has. (The room blocks below repeat
    // these rules, as they set no-restricted-syntax themselves.)
    files: ['electron/**/*.ts'],
    ignores: ['electron/runs/**', 'electron/sandbox/**'],
    rules: { 'no-restricted-syntax': ['error', submitRule, ...backendRules] },
  },
  ...roomOrder,
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
    files: ['electron/cli.ts', 'electron/cli-main.ts', 'electron/cli/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
