// `sandbar run` (run here, not bridged) starts its run through the real RunService, over the fake backend:
// its flags become the same RunRequest an MCP call makes, so it gets every feature (servers, packages) and
// every refusal the other surfaces get, in the same words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliContext } from '../../../electron/cli/cli-context.js';
import { registerRunCommand } from '../../../electron/cli/run-command.js';
import type { SandbarCore } from '../../../electron/core.js';
import type { EngineEvent, ExecutionResult } from '../../../shared/execution.js';
import { runFixture } from '../runs/run-fixture.js';

let fixture: Awaited<ReturnType<typeof runFixture>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await fixture?.dispose();
  fixture = undefined;
});

const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-run-command-'));
function codeFile(code: string): string {
  const file = path.join(dir, `code-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, code);
  return file;
}

/** Runs `sandbar run ARGS --no-bridge` with a core made of the fixture's run service and engine (a one-shot command keeps no sessions). */
async function sandbarRun(args: string[], options: Parameters<typeof runFixture>[0] = {}, extra: Partial<ExecutionResult> = {}) {
  fixture = await runFixture({ sessions: false, ...options });
  const f = fixture;
  f.open();
  const events: EngineEvent[] = [];
  f.engine.subscribe((e) => events.push(e));
  // `extra`: fields the fake backend cannot make (egress records), added to the run's result.
  const runs = { start: async (...a: Parameters<typeof f.runs.start>) => {
    const ticket = await f.runs.start(...a);
    return { ...ticket, result: ticket.result.then((r) => ({ ...r, execution: { ...r.execution, ...extra } })) };
  } };
  const core = { start: async () => {}, dispose: async () => {}, runs, engine: f.engine } as unknown as SandbarCore;
  let exitCode: number | undefined;
  const ctx: CliContext = { createCore: async () => core, setExitCode: (c) => (exitCode = c), exit: () => {} };
  const program = new Command().exitOverride();
  registerRunCommand(program, ctx);
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
  await program.parseAsync(['run', ...args, '--no-bridge'], { from: 'user' });
  return { exitCode, stdout: out.join(''), stderr: err.join(''), events };
}

describe('sandbar run goes through the run service', () => {
  it('runs with --servers and repeated --package: servers prepared, packages installed and recorded, as client cli', async () => {
    const r = await sandbarRun([codeFile('packages\nservers'), '--servers', 'weather', '--package', 'numpy==2.1', '-p', 'pandas']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('/opt/sandbar/layers/abc\nweather\n');
    expect(fixture!.packageCalls).toEqual([['numpy==2.1', 'pandas']]);
    const queued = r.events.find((e) => e.type === 'queued');
    expect(queued?.type === 'queued' && queued.execution).toMatchObject({ client: { name: 'cli', transport: 'cli' }, servers: ['weather'], packages: { requirements: ['numpy==2.1', 'pandas'] } });
  });

  it('is refused as MCP refuses: a malformed requirement, packages on a backend that cannot mount them, a denied server', async () => {
    await expect(sandbarRun([codeFile('print x'), '--package', 'numpy; rm -rf /'])).rejects.toThrow(/^packages: /);
    expect(fixture!.packageCalls).toEqual([]);
    await fixture!.dispose();
    await expect(sandbarRun([codeFile('print x'), '--package', 'numpy'], { features: { packages: false, label: 'Cluster' } })).rejects.toThrow(
      'Packages are not available with the Cluster runtime: bake them into the image.',
    );
    await fixture!.dispose();
    await expect(sandbarRun([codeFile('print x'), '--servers', 'mail'])).rejects.toThrow(/'mail' is denied in Sandbar/);
    expect(fixture!.engine.snapshot().queued).toEqual([]);
  });

  it('says which egress connections were refused, one line each on stderr (the output stays as it was)', async () => {
    const egress = [
      { host: 'api.example.com', port: 443, decision: 'allowed' as const, bytesOut: 1, bytesIn: 2 },
      { host: 'evil.example', port: 80, decision: 'denied' as const, reason: 'not allowed', bytesOut: 0, bytesIn: 0 },
    ];
    const r = await sandbarRun([codeFile('print 1')], {}, { egress, egressDropped: 0 });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('egress refused: evil.example:80 (not allowed)\n');
  });
});
