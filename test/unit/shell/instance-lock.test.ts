// One engine per SANDBAR_HOME: claiming the home's lock, refusing beside a live holder (naming its pid and
// endpoint), taking over a lock whose process is gone, and releasing only one's own.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alreadyRunningLine, claimHome, LOCK_FILE, releaseHome } from '../../../electron/instance-lock.js';
import { alreadyRunningDialog } from '../../../electron/shell/already-running-dialog.js';

let home = '';
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'sandbar-lock-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const lock = () => path.join(home, LOCK_FILE);
// A pid no process has (above the kernel's pid_max).
const GONE = 2_147_483_646;

describe('claimHome', () => {
  it('claims a fresh home (creating it), and a second claimant is refused with the holder named', () => {
    const fresh = path.join(home, 'nested', 'home');
    const first = claimHome(fresh, process.pid);
    expect(first.ok).toBe(true);
    expect(readFileSync(path.join(fresh, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    // Another process (the parent stands in: alive, not this one) asking for the same home while we hold it.
    const second = claimHome(fresh, process.ppid);
    expect(second).toEqual({ ok: false, holder: { pid: process.pid, url: null } });
    if (first.ok) first.release();
    expect(existsSync(path.join(fresh, LOCK_FILE))).toBe(false);
  });

  it('names the holder\'s endpoint once its instance.json says where it listens', () => {
    writeFileSync(lock(), `${process.ppid}\n`);
    writeFileSync(path.join(home, 'instance.json'), JSON.stringify({ pid: process.ppid, url: 'http://127.0.0.1:7555/mcp', startedAt: 1, key: 'a'.repeat(64) }));
    const refused = claimHome(home, process.pid);
    expect(refused).toEqual({ ok: false, holder: { pid: process.ppid, url: 'http://127.0.0.1:7555/mcp' } });
    // An instance.json of some other process says nothing about this holder.
    writeFileSync(path.join(home, 'instance.json'), JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:7556/mcp', startedAt: 1, key: 'a'.repeat(64) }));
    expect(claimHome(home, GONE)).toEqual({ ok: false, holder: { pid: process.ppid, url: null } });
  });

  it('takes over a lock whose process is gone, or that holds no pid', () => {
    for (const stale of [`${GONE}\n`, 'not a pid', '']) {
      writeFileSync(lock(), stale);
      const claim = claimHome(home, process.pid);
      expect(claim.ok, JSON.stringify(stale)).toBe(true);
      expect(readFileSync(lock(), 'utf8')).toBe(`${process.pid}\n`);
    }
  });

  it('releases only its own lock', () => {
    writeFileSync(lock(), `${process.ppid}\n`);
    releaseHome(home, process.pid);
    expect(readFileSync(lock(), 'utf8')).toBe(`${process.ppid}\n`);
    releaseHome(home, process.ppid);
    expect(existsSync(lock())).toBe(false);
  });
});

describe('what a second instance says', () => {
  it('one line naming the home, the pid and the endpoint, or that it is still starting', () => {
    expect(alreadyRunningLine('/h', { pid: 42, url: 'http://127.0.0.1:7337/mcp' })).toBe(
      'Sandbar is already running for SANDBAR_HOME=/h: pid 42 at http://127.0.0.1:7337/mcp. Use that one, stop it first, or set SANDBAR_HOME to another folder.',
    );
    expect(alreadyRunningLine('/h', { pid: 42, url: null })).toContain('pid 42 (still starting, not listening yet).');
    expect(alreadyRunningLine('/h', { pid: 42, url: null })).not.toContain('\n');
  });

  it('the desktop app puts that line in a native dialog with one button', () => {
    expect(alreadyRunningDialog('the line')).toMatchObject({ type: 'info', detail: 'the line', buttons: ['Quit'] });
  });
});
