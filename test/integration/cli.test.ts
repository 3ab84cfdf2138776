// The `sandbar` command as users and scripts see it: the built bin, real containers, stable exit codes.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox } from './helpers.js';

const BIN = path.resolve('dist/electron/cli.js');
// One SANDBAR_HOME for this file: settings, token and history never touch the real home.
const HOME = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-home-'));

function sandbar(args: string[], options: { input?: string; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, SANDBAR_HOME: HOME, SANDBAR_IMAGE: sandbox.image, ...options.env },
    timeout: 120_000,
  });
}

describe('sandbar CLI basics', () => {
  it('is built (npm test builds before testing)', () => {
    expect(existsSync(BIN)).toBe(true);
  });

  it('prints help listing its commands, and its version', () => {
    const help = sandbar(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: sandbar/);
    expect(help.stdout).toMatch(/\brun\b/);
    expect(help.stdout).toMatch(/\bdoctor\b/);
    const version = sandbar(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(execFileSync('cat', ['package.json'], { encoding: 'utf8' })).version);
  });

  it('runs as `npx sandbar` from the package bin', () => {
    const r = spawnSync('npx', ['--no-install', 'sandbar', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: sandbar/);
  });

  it('refuses an invalid environment value with a message naming it, and no stack trace', () => {
    const r = sandbar(['run', '-'], { input: 'print(1)', env: { MCP_BRIDGE_MEMORY: 'lots' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('MCP_BRIDGE_MEMORY');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports an unreadable file clearly', () => {
    const r = sandbar(['run', '/nonexistent/code.py']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Cannot read /nonexistent/code.py: ENOENT');
  });

  it('says no runtime was found, and doctor fails, when the runtime is missing', () => {
    const run = sandbar(['run', '-'], { input: 'print(1)', env: { SANDBAR_RUNTIME: '/nonexistent/podman' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('SANDBAR_RUNTIME=/nonexistent/podman');
    const doctor = sandbar(['doctor', '--json'], { env: { SANDBAR_RUNTIME: '/nonexistent/podman' } });
    expect(doctor.status).toBe(1);
    const report = JSON.parse(doctor.stdout);
    expect(report.ok).toBe(false);
    expect(report.runtime).toBeNull();
    expect(report.checks[0].hint).toMatch(/Install Podman/);
  });
});

describe('sandbar doctor and the user\'s folders', () => {
  it('names a refused folder and its rule, and the mounted ones (no container needed)', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-folders-'));
    const data = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-folder-data-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ folders: [{ name: 'data', path: data }, { name: 'etc', path: '/etc' }] }));
    const env = { SANDBAR_HOME: home, SANDBAR_RUNTIME: '/nonexistent/podman' };
    const report = JSON.parse(sandbar(['doctor', '--json'], { env }).stdout) as { checks: { id: string; status: string; detail: string }[] };
    const row = report.checks.find((c) => c.id === 'folders');
    expect(row?.status).toBe('warn');
    expect(row?.detail).toContain('etc (/etc) is /etc: it belongs to the system');
    expect(row?.detail).toContain(`${data} at /mnt/data (read-only)`);
    expect(sandbar(['doctor'], { env }).stdout).toContain('Folders: Refused, not mounted: etc (/etc) is /etc');
  });
});

describe('sandbar run refuses what every surface refuses (the run service)', () => {
  // Its own home: these settings must not reach the other tests.
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-refusals-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ maxCodeBytes: 1024, mcpServers: { vault: { command: 'true' } }, serverPolicies: { vault: 'deny' } }));
  const refused = (args: string[], input: string) => sandbar([...args, '--no-bridge'], { input, env: { SANDBAR_HOME: home } });

  it('code past maxCodeBytes, in the words MCP uses, before any container starts', () => {
    const r = refused(['run', '-'], `print("${'x'.repeat(3000)}")`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Code is 3 KiB; the limit is 1 KiB. Send a shorter script.');
  });

  it('a denied server with the sentence that says where to allow it, and an unknown one as unknown', () => {
    const denied = refused(['run', '-', '--servers', 'vault'], 'print(1)');
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain("MCP server 'vault' is denied in Sandbar; allow it in the panel's Servers view to use it");
    const unknown = refused(['run', '-', '--servers', 'nope'], 'print(1)');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unknown MCP server: nope');
  });

  it('a malformed --package requirement, in the words MCP uses, before anything installs', () => {
    const r = refused(['run', '-', '--package', 'numpy; rm -rf /'], 'print(1)');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/packages: /);
  });
});

describe.skipIf(!sandbox.available)('sandbar run and doctor against real containers', () => {
  it('runs code from stdin and from a file, with exit status 0 / 1', () => {
    const ok = sandbar(['run', '-'], { input: 'print("hello")\n' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('hello\n');
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-'));
    writeFileSync(path.join(dir, 'fail.py'), 'import sys\nprint("to stderr", file=sys.stderr)\nsys.exit(3)\n');
    const failed = sandbar(['run', path.join(dir, 'fail.py')]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('to stderr');
  });

  it('exits 124 on timeout and 137 on a memory kill', () => {
    const slow = sandbar(['run', '--timeout', '1', '-'], { input: 'import time\ntime.sleep(30)' });
    expect(slow.status).toBe(124);
    expect(slow.stderr).toContain('Execution timed out after 1s');
    const hungry = sandbar(['run', '-'], { input: 'b = bytearray(2 * 1024 ** 3)' });
    expect(hungry.status).toBe(137);
    expect(hungry.stderr).toContain('killed: memory limit 512m reached');
  });

  it('lists recorded runs with sandbar history, filtered and searched', () => {
    expect(sandbar(['run', '-'], { input: 'print("quokka-marker")' }).status).toBe(0);
    const table = sandbar(['history', '--limit', '5']);
    expect(table.status).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+QUEUED\s+CLIENT\s+STATUS/);
    const found = JSON.parse(sandbar(['history', '--search', 'quokka-marker', '--json']).stdout) as { items: { status: string; client: { name: string } }[] };
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ status: 'success', client: { name: 'cli' } });
    const timeouts = JSON.parse(sandbar(['history', '--status', 'timeout', '--json']).stdout) as { items: { status: string }[] };
    expect(timeouts.items.every((i) => i.status === 'timeout')).toBe(true);
    const bad = sandbar(['history', '--limit', 'lots']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 500, not lots');
  });

  it('prints the structured result with --json', () => {
    const r = sandbar(['run', '--json', '-'], { input: 'print(1)' });
    expect(r.status).toBe(0);
    const payload = JSON.parse(r.stdout);
    expect(payload.stdout).toEqual(['1']);
    expect(payload.exitReason).toBe('success');
    expect(typeof payload.durationMs).toBe('number');
  });

  it('doctor proves every limit is enforced here and exits 0', () => {
    const r = sandbar(['doctor', '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.enforced).toEqual({ memory: true, pids: true, network: true, readOnlyRoot: true, capabilities: true, seccomp: true });
    expect(report.seccomp).toBe('sandbar');
    expect(report.checks.find((c: { id: string }) => c.id === 'enforced.seccomp').detail).toMatch(/^seccomp: Sandbar profile/);
    expect(report.runtime).toMatchObject({ name: expect.stringMatching(/podman|docker/), version: expect.any(String), rootless: expect.any(Boolean), cgroupVersion: expect.any(Number), ociRuntime: expect.any(String) });
    expect(report.image).toEqual({ name: sandbox.image, present: true });
    expect(report.checks.find((c: { id: string }) => c.id === 'history')).toMatchObject({ status: 'ok', detail: expect.stringContaining('history.db') });
    expect(report.ok).toBe(true);
    expect(r.status).toBe(0);
  });

  it('doctor fails with a hint when the image is missing', () => {
    const r = sandbar(['doctor', '--json'], { env: { SANDBAR_IMAGE: 'localhost/sandbar-missing:none' } });
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.image).toEqual({ name: 'localhost/sandbar-missing:none', present: false });
    expect(report.checks.find((c: { id: string }) => c.id === 'image').hint).toMatch(/`npm run -s sandbar -- image pull`/);
  });

  it('image reports present (0) or missing (1), and a failed pull names the runtime\'s reason', () => {
    const present = sandbar(['image', '--json']);
    expect(present.status).toBe(0);
    expect(JSON.parse(present.stdout)).toEqual({ image: sandbox.image, present: true });
    const missing = sandbar(['image', 'status', 'localhost/sandbar-missing:none']);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/missing \(run `npm run -s sandbar -- image pull`\)/);
    const pull = sandbar(['image', 'pull', 'localhost/sandbar-missing:none']);
    expect(pull.status).toBe(1);
    expect(pull.stderr).toMatch(/^sandbar: Pulling localhost\/sandbar-missing:none failed: \S/m);
    expect(pull.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
