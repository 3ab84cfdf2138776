// One engine per SANDBAR_HOME, with real processes: a second `sandbar serve` started with the home of a
// running one refuses in one line naming it (pid and endpoint) and starts nothing; the running one is
// untouched. A serve that was killed outright leaves a lock the next one takes over.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInstance } from '../../../electron/instance-file.js';
import { LOCK_FILE } from '../../../electron/instance-lock.js';
import { sandbox } from '../helpers.js';
import { SANDBAR_BIN, baseEnv, killAllChildren, run, startServe } from '../mcp/real-clients-helpers.js';

describe.skipIf(!sandbox.available)('one Sandbar per SANDBAR_HOME', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-one-instance-'));
  // No warm pool: nothing here runs code, and a killed serve leaves no container behind.
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ poolSize: 0 }));
  const env = baseEnv({ SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image });
  afterAll(() => {
    killAllChildren();
    rmSync(home, { recursive: true, force: true });
  });

  it('a second serve refuses in one line naming the running one; a serve killed outright does not block the next', async () => {
    const first = await startServe(env);
    expect(readInstance(home)?.pid).toBe(first.pid);

    const second = await run(process.execPath, [SANDBAR_BIN, 'serve', '--port', '0'], { env, timeoutMs: 30_000 });
    expect(second.timedOut).toBe(false);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `sandbar: Sandbar is already running for SANDBAR_HOME=${home}: pid ${first.pid} at ${first.url}. Use that one, stop it first, or set SANDBAR_HOME to another folder.\n`,
    );
    // The running one still owns the home and still answers with its token.
    expect(readInstance(home)?.pid).toBe(first.pid);
    expect((await fetch(first.url, { headers: { accept: 'text/event-stream', authorization: 'Bearer nope' } })).status).toBe(401);

    // Killed without a chance to clean up: its lock stays, naming a process that is gone.
    process.kill(first.pid, 'SIGKILL');
    expect(await first.stop()).toBe('SIGKILL');
    expect(existsSync(path.join(home, LOCK_FILE))).toBe(true);
    const next = await startServe(env);
    expect(readInstance(home)?.pid).toBe(next.pid);
    expect(await next.stop()).toBe(0);
    // A clean stop gives the home back.
    expect(existsSync(path.join(home, LOCK_FILE))).toBe(false);
  }, 120_000);
});
