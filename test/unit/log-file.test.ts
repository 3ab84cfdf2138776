// The log file of a long-running instance: every logger's lines land in it, it rotates by size keeping a
// few files, it is owner-only, and no token or bearer credential is ever written to it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppLog, LogFile, redact } from '../../electron/log-file.js';
import { createLogger, logToFile } from '../../electron/logger.js';

const tempDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-logs-')), 'logs');
const TOKEN = 'k3Vq9ZpX0aB7c1Dw2Ee4Ff5Gg6Hh8Ii9Jj0Kk1Ll2Mm3';
const PANEL = 'p4nelT0kenValue9988776655443322110099887766';

afterEach(() => {
  logToFile(null);
});

describe('redact', () => {
  it('masks bearer credentials, the panel URL fragment and the token files\' values wherever they appear', () => {
    const line = `GET /mcp Authorization: Bearer ${TOKEN} from http://127.0.0.1:7337/#token=${PANEL} and again ${TOKEN}, "authorization":"bearer abc.def-123"`;
    const out = redact(line, [TOKEN, PANEL]);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(PANEL);
    expect(out).not.toContain('abc.def-123');
    expect(out).toBe('GET /mcp Authorization: Bearer •••• from http://127.0.0.1:7337/#token=•••• and again ••••, "authorization":"bearer ••••"');
  });

  it('leaves ordinary lines alone', () => {
    expect(redact('now listening on http://127.0.0.1:7337/mcp', [TOKEN])).toBe('now listening on http://127.0.0.1:7337/mcp');
  });
});

describe('LogFile', () => {
  it('receives every logger\'s lines once a sink is set, redacted, in an owner-only file', () => {
    const dir = tempDir();
    const file = new LogFile({ dir, secrets: () => [TOKEN] });
    logToFile((line) => file.write(line));
    const stderr: string[] = [];
    createLogger('http', { SANDBAR_LOG_LEVEL: 'info' }, (l) => stderr.push(l) > 0).warn(`refused a request with token ${TOKEN}`);
    createLogger('history', { SANDBAR_LOG_LEVEL: 'info' }, () => true).debug('not at this level');
    const text = readFileSync(file.file, 'utf8');
    expect(text).toMatch(/warn {2}\[http\] refused a request with token ••••\n$/);
    expect(text).not.toContain('not at this level');
    expect(stderr).toHaveLength(1);
    if (process.platform !== 'win32') {
      expect(statSync(file.file).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it('rotates by size and keeps only the last few files', () => {
    const dir = tempDir();
    const file = new LogFile({ dir, maxBytes: 100, keep: 2 });
    for (let i = 0; i < 12; i++) file.write(`${String(i).padStart(2, '0')} ${'x'.repeat(40)}\n`);
    expect(readdirSync(dir).sort()).toEqual(['sandbar.log', 'sandbar.log.1', 'sandbar.log.2']);
    for (const name of readdirSync(dir)) expect(statSync(path.join(dir, name)).size).toBeLessThanOrEqual(100);
    // The newest lines are in the current file, the ones before in .1, the oldest kept in .2; older are gone.
    expect(readFileSync(path.join(dir, 'sandbar.log'), 'utf8')).toMatch(/^10 .*\n11 /);
    expect(readFileSync(path.join(dir, 'sandbar.log.2'), 'utf8')).toMatch(/^06 /);
  });

  it('keeps its size across restarts: a new instance appends and rotates from where the file is', () => {
    const dir = tempDir();
    new LogFile({ dir, maxBytes: 100 }).write(`${'a'.repeat(80)}\n`);
    new LogFile({ dir, maxBytes: 100 }).write(`${'b'.repeat(80)}\n`);
    expect(readFileSync(path.join(dir, 'sandbar.log'), 'utf8')).toBe(`${'b'.repeat(80)}\n`);
    expect(readFileSync(path.join(dir, 'sandbar.log.1'), 'utf8')).toBe(`${'a'.repeat(80)}\n`);
  });
});

describe('AppLog (the log of the tray app and serve)', () => {
  it('takes every line from the moment it opens, under $SANDBAR_HOME/logs, and masks the tokens once they join', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    const logger = createLogger('desktop', { SANDBAR_LOG_LEVEL: 'info' }, () => true);
    logger.info('before the log opened');
    const appLog = new AppLog(home);
    expect(appLog.path).toBe(path.join(home, 'logs', 'sandbar.log'));
    logger.warn('the first line after it opened');
    logger.info(`panel at http://127.0.0.1:7337/#token=${PANEL} and the client sent Bearer ${TOKEN}`);
    appLog.neverWrite(() => [TOKEN]);
    logger.info(`a line that quotes the token ${TOKEN}`);
    appLog.close();
    logger.info('after it closed');
    const text = readFileSync(appLog.path, 'utf8');
    expect(text.split('\n').filter(Boolean).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'warn  [desktop] the first line after it opened',
      'info  [desktop] panel at http://127.0.0.1:7337/#token=•••• and the client sent Bearer ••••',
      'info  [desktop] a line that quotes the token ••••',
    ]);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(PANEL);
    rmSync(home, { recursive: true, force: true });
  });
});
