// `sandbar run` joins a running instance of the same home: the run uses that instance's engine and lands
// in its history, with output and exit code as a local run gives them; `--no-bridge` runs here instead.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { startTestApp, type TestApp } from './control-helpers.js';

/** Asynchronously: the instance runs in this process and must keep answering while the CLI runs. */
function cli(home: string, args: string[], code: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.resolve('dist/electron/cli.js'), 'run', ...args, '-'], { env: { ...process.env, SANDBAR_HOME: home } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(code);
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe.skipIf(!sandbox.available)('sandbar run and a running instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs in the instance: its output, its exit code, and a row in its history as sandbar-cli', async () => {
    const ok = await cli(t.home, [], 'print("joined")\nimport sys\nprint("to stderr", file=sys.stderr)');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('joined\n');
    expect(ok.stderr).toContain('to stderr');
    const rows = t.app.core.history.list({ client: 'sandbar-cli' }).items;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'success', transport: 'http' });

    const failed = await cli(t.home, [], 'raise SystemExit(3)');
    expect(failed.status).toBe(1);
    const json = await cli(t.home, ['--json'], 'print(2 + 2)');
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ stdout: ['4'], exitReason: 'success' });
    expect(t.app.core.history.list({ client: 'sandbar-cli' }).items).toHaveLength(3);
  });

  it('a run that makes a figure still prints its output and --json its payload (the result has no structuredContent)', async () => {
    const plot = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nprint('plotted')";
    const run = await cli(t.home, [], plot);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('plotted\n');
    const json = await cli(t.home, ['--json'], plot);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ stdout: ['plotted'], exitReason: 'success' });
  });

  it('--no-bridge runs here, recorded as a cli run', async () => {
    const before = t.app.core.history.list({ client: 'cli' }).items.length;
    const local = await cli(t.home, ['--no-bridge'], 'print("local")');
    expect(local.status, local.stderr).toBe(0);
    expect(local.stdout).toBe('local\n');
    expect(t.app.core.history.list({ client: 'sandbar-cli' }).items).toHaveLength(5);
    // The local run's row is written by the other process; this instance's history reads the same file.
    expect(t.app.core.history.list({ client: 'cli' }).items.length).toBe(before + 1);
  });

  it('runs here when the instance file is stale or names an instance that refuses the token', async () => {
    // A listener that is not this home's instance: it refuses everything, so nothing may run there.
    let requests = 0;
    let tokens = 0;
    const impostor = createServer((req, res) => {
      requests++;
      if (req.headers.authorization) tokens++;
      res.writeHead(401).end();
    });
    await new Promise<void>((r) => impostor.listen(0, '127.0.0.1', r));
    const port = (impostor.address() as { port: number }).port;
    try {
      for (const url of [`http://127.0.0.1:${port}/mcp`, 'http://127.0.0.1:9/mcp']) {
        const home = mkdtempSync(path.join(tmpdir(), 'sandbar-stale-'));
        writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image }));
        // A live pid and a key: only the proof (instance-proof.ts) stands between the CLI and the impostor.
        writeFileSync(path.join(home, 'instance.json'), JSON.stringify({ pid: process.pid, url, startedAt: 0, key: 'a'.repeat(64) }));
        const run = await cli(home, [], 'print("ran here")');
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toBe('ran here\n');
      }
      // The impostor was asked for the proof, once, and never given the token.
      expect(requests).toBe(1);
      expect(tokens).toBe(0);
    } finally {
      impostor.close();
    }
  });

  it('passes --package on to the instance, which refuses a malformed requirement as MCP does (no run, no row)', async () => {
    const before = t.app.core.history.list({}).items.length;
    const bad = await cli(t.home, ['--package', 'numpy; rm -rf /'], 'print(1)');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/packages: /);
    expect(bad.stdout).toBe('');
    expect(t.app.core.history.list({}).items).toHaveLength(before);
  });
});
