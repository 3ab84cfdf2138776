// The room order (docs/ARCHITECTURE.md) is a lint rule: this lints small snippets as if they sat in each room
// and checks that a wrong arrow fails with the room's sentence, a right one passes, and every folder has a block.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, '.ci/eslint.config.js') });
});

/** The room-order complaints (restricted imports or syntax) about `code` placed at `file`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}
const importing = (spec: string) => `export * from '${spec}';\n`;

// [file, import, words the complaint must contain]
const wrong: [string, string, string][] = [
  ['electron/runs/probe.ts', '../mcp/caller.js', 'runs/ is the use case'],
  ['electron/runs/probe.ts', '../control/panel-runs.js', 'runs/ is the use case'],
  ['electron/runs/probe.ts', '../cli/run-command.js', 'runs/ is the use case'],
  ['electron/runs/probe.ts', '../http/http-api.js', 'runs/ is the use case'],
  ['electron/runs/probe.ts', '../shell/tray-model.js', 'runs/ is the use case'],
  ['electron/runs/probe.ts', '../core.js', 'runs/ is the use case'],
  ['electron/mcp/probe.ts', '../core.js', 'mcp/ is a surface'],
  ['electron/mcp/probe.ts', '../sandbar-app.js', 'mcp/ is a surface'],
  ...['health', 'settings', 'runs', 'sessions', 'packages', 'proxy', 'history', 'mcp', 'control', 'egress'].map(
    (r): [string, string, string] => ['electron/sandbox/engine-probe.ts', `../${r}/x.js`, 'sandbox/ is the engine'],
  ),
  ['electron/sandbox/cli/probe.ts', '../../settings/settings-store.js', 'sandbox/ is the engine'],
  ['electron/sandbox/kubernetes/probe.ts', '../../health/app-health.js', 'sandbox/ is the engine'],
  ['electron/sandbox/run/probe.ts', '../../runs/run-service.js', 'sandbox/ is the engine'],
  ['electron/sandbox/agent/probe.ts', '../../sessions/session-registry.js', 'sandbox/ is the engine'],
  ['electron/sandbox/engine-probe.ts', './cli/cli-backend.js', 'backends come in through SandboxBackend'],
  ['electron/sandbox/kubernetes/probe.ts', '../cli/cli-backend.js', 'never another backend'],
  ['electron/settings/probe.ts', '../sandbox/engine.js', 'settings/'],
  ['electron/settings/probe.ts', '../runs/run-service.js', 'settings/'],
  ['electron/control/probe.ts', '../mcp/caller.js', 'control/'],
  ['electron/control/probe.ts', '../sandbar-app.js', 'control/'],
  ['electron/http/probe.ts', '../cli/run-command.js', 'http/'],
  ['electron/shell/probe.ts', '../mcp/caller.js', 'shell/'],
  ['electron/cli/probe.ts', '../main.js', 'cli/'],
  ['electron/cli/probe.ts', '../shell/tray-model.js', 'cli/'],
  ...['proxy', 'sessions', 'packages', 'history', 'health', 'clients', 'egress'].flatMap((r): [string, string, string][] => [
    [`electron/${r}/probe.ts`, '../runs/run-service.js', `${r}/ is a service`],
    [`electron/${r}/probe.ts`, '../control/panel-runs.js', `${r}/ is a service`],
    [`electron/${r}/probe.ts`, '../core.js', `${r}/ is a service`],
  ]),
  // A room's files one folder deeper are held to the same order.
  ['electron/proxy/discovery/probe.ts', '../../mcp/caller.js', 'proxy/ is a service'],
  ['electron/logger.ts', './runs/run-service.js', 'shared helpers'],
];

const right: [string, string][] = [
  ['electron/mcp/probe.ts', '../runs/run-service.js'],
  ['electron/control/probe.ts', '../runs/run-service.js'],
  ['electron/cli/probe.ts', '../runs/run-service.js'],
  ['electron/runs/probe.ts', '../sessions/session-registry.js'],
  ['electron/runs/probe.ts', '../sandbox/engine.js'],
  ['electron/health/probe.ts', '../sandbox/backend.js'],
  ['electron/sandbox/cli/probe.ts', '../run/execution.js'],
  ['electron/sandbox/engine-probe.ts', './run/execution.js'],
  ['electron/core.ts', './mcp/mcp-deps.js'],
];

describe('room order lint', () => {
  it.each(wrong)('%s may not import %s', async (file, spec, words) => {
    const found = await complaints(file, importing(spec));
    expect(found.join('\n')).toContain(words);
  });

  it.each(right)('%s may import %s', async (file, spec) => {
    expect(await complaints(file, importing(spec))).toEqual([]);
  });

  it('checks type-only and dynamic imports too', async () => {
    expect((await complaints('electron/runs/probe.ts', "import type { RunCaller } from '../mcp/caller.js';\nexport type { RunCaller };\n")).join()).toContain('runs/ is the use case');
    expect((await complaints('electron/runs/probe.ts', "export const load = () => import('../mcp/caller.js');\n")).join()).toContain('runs/ is the use case');
    expect((await complaints('electron/sandbox/cli/probe.ts', "export const load = () => import('../../settings/paths.js');\n")).join()).toContain('sandbox/ is the engine');
  });

  it('lets only runs/ and sandbox/ call engine.submit', async () => {
    const call = 'export const go = (engine: { submit(c: string): void }) => engine.submit("1");\n';
    for (const file of ['electron/control/probe.ts', 'electron/mcp/probe.ts', 'electron/cli/probe.ts', 'electron/core.ts', 'electron/proxy/probe.ts']) {
      expect((await complaints(file, call)).join(), file).toContain('Start runs through RunService');
    }
    expect(await complaints('electron/runs/probe.ts', call)).toEqual([]);
  });

  it('lets no file outside a backend\'s own wing test which backend it has', async () => {
    const tests = [
      "import type { SandboxBackend } from '../sandbox/backend.js';\nexport const k = (b: SandboxBackend) => b.kind === 'kubernetes';\n",
      "export const k = (b: { kind: string }) => 'docker' !== b.kind;\n",
      "export const k = (b: object, K: new () => object) => { class KubernetesBackend {} return b instanceof KubernetesBackend || K; };\n",
      "export const k = (kind: string) => { switch (kind) { case 'podman': return 1; default: return 0; } };\n",
      'export const isKubernetes = (x: unknown) => Boolean(x);\n',
    ];
    for (const file of ['electron/health/probe.ts', 'electron/runs/probe.ts', 'electron/core.ts', 'electron/sandbox/engine-probe.ts', 'electron/sandbox/run/probe.ts', 'electron/mcp/probe.ts']) {
      for (const code of tests) expect((await complaints(file, code)).join(), `${file}: ${code}`).toContain('Ask the backend what it supports');
    }
    for (const file of ['electron/sandbox/kubernetes/probe.ts', 'electron/sandbox/cli/probe.ts']) {
      for (const code of tests) expect(await complaints(file, code), `${file}: ${code}`).toEqual([]);
    }
    // What a backend says of itself is fine anywhere.
    expect(await complaints('electron/health/probe.ts', "export const k = (b: { features: { pause: boolean; label: string } }) => b.features.pause || b.features.label === 'x';\n")).toEqual([]);
  });

  it('has a room block for every folder under electron/', async () => {
    const folders = readdirSync(path.join(root, 'electron'), { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'assets');
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) {
      const config = await eslint.calculateConfigForFile(path.join(root, 'electron', folder.name, 'probe.ts'));
      const [, options] = config.rules['no-restricted-imports'] as [unknown, { patterns: { regex?: string }[] }];
      expect(options.patterns.some((p) => p.regex), `electron/${folder.name}/ has no room block`).toBe(true);
    }
  });
});
