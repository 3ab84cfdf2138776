// The smoke-test hook's guard: honoured only from a checkout, with an explicit test home, for a file
// directly inside it; and its report format (JSON lines, a torn last line ignored).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSmokeReport, SMOKE_REPORT_ENV, smokeHookFrom, smokeReporter } from '../../../electron/shell/smoke-hook.js';

const home = '/tmp/sandbar-smoke-abc';
const decide = (value: string | undefined, options: { packaged?: boolean; env?: NodeJS.ProcessEnv; home?: string; path?: typeof path.posix } = {}) =>
  smokeHookFrom({
    env: { SANDBAR_HOME: options.home ?? home, ...(value === undefined ? {} : { [SMOKE_REPORT_ENV]: value }), ...options.env },
    isPackaged: options.packaged ?? false,
    home: options.home ?? home,
    path: options.path ?? path.posix,
  });

describe('smokeHookFrom', () => {
  it('is off, silently, when the variable is unset or empty', () => {
    expect(decide(undefined)).toEqual({ enabled: false });
    expect(decide('')).toEqual({ enabled: false });
  });

  it('is honoured for a file directly inside the explicit SANDBAR_HOME of a checkout', () => {
    expect(decide(`${home}/smoke-report.jsonl`)).toEqual({ enabled: true, file: `${home}/smoke-report.jsonl` });
  });

  it('is never honoured by a packaged app', () => {
    expect(decide(`${home}/smoke-report.jsonl`, { packaged: true })).toEqual({ enabled: false, refused: expect.stringMatching(/packaged/) });
  });

  it('needs SANDBAR_HOME set explicitly (never the user\'s default home)', () => {
    const decision = smokeHookFrom({ env: { [SMOKE_REPORT_ENV]: '/home/me/.config/sandbar/r.jsonl' }, isPackaged: false, home: '/home/me/.config/sandbar', path: path.posix });
    expect(decision).toEqual({ enabled: false, refused: expect.stringMatching(/SANDBAR_HOME/) });
  });

  it('refuses relative paths, paths outside the home, the home itself, subfolders and climbing out', () => {
    for (const value of ['report.jsonl', '/etc/cron.d/x', home, `${home}/sub/report.jsonl`, `${home}/../elsewhere.jsonl`, `${home}-other/report.jsonl`]) {
      expect(decide(value), value).toMatchObject({ enabled: false, refused: expect.any(String) });
    }
  });

  it('applies the same rule to Windows paths', () => {
    const winHome = 'C:\\Users\\ci\\AppData\\Local\\Temp\\sandbar-smoke-1';
    expect(decide(`${winHome}\\smoke-report.jsonl`, { home: winHome, path: path.win32 })).toEqual({ enabled: true, file: `${winHome}\\smoke-report.jsonl` });
    expect(decide('D:\\smoke-report.jsonl', { home: winHome, path: path.win32 })).toMatchObject({ enabled: false });
    expect(decide(`${winHome}\\..\\x.jsonl`, { home: winHome, path: path.win32 })).toMatchObject({ enabled: false });
  });
});

describe('smokeReporter and parseSmokeReport', () => {
  it('writes one JSON line per event with a timestamp, and reads them back', () => {
    let text = '';
    const report = smokeReporter((line) => (text += line), () => 42);
    report({ event: 'second-instance' });
    report({ event: 'console', level: 'error', message: 'a "quoted"\nmessage', source: 'app://sandbar/x.js', line: 7 });
    expect(text.split('\n')).toHaveLength(3);
    expect(parseSmokeReport(text)).toEqual([
      { event: 'second-instance', at: 42 },
      { event: 'console', level: 'error', message: 'a "quoted"\nmessage', source: 'app://sandbar/x.js', line: 7, at: 42 },
    ]);
  });

  it('never throws when the file cannot be written', () => {
    const report = smokeReporter(() => {
      throw new Error('EACCES');
    });
    expect(() => report({ event: 'quitting' })).not.toThrow();
  });

  it('ignores a torn last line and lines that are not events', () => {
    expect(parseSmokeReport('{"event":"quitting","at":1}\n[1,2]\n{"foo":1}\n{"event":"disp')).toEqual([{ event: 'quitting', at: 1 }]);
  });
});
