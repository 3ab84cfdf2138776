// The log file of `serve` and the desktop (sandbar-app.ts): open before the app's first line, so the lines
// of its own start (a new token's file, the core's warnings) are in it, and the tokens never are.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, logToFile } from '../../electron/logger.js';
import { createSandbarApp } from '../../electron/sandbar-app.js';

const homes: string[] = [];
afterEach(() => {
  logToFile(null);
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('createSandbarApp and its log file', () => {
  it('writes the lines of its own start to $SANDBAR_HOME/logs/sandbar.log, with neither token', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-app-log-'));
    homes.push(home);
    const env = { ...process.env, SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'info', SANDBAR_RUNTIME: '/nonexistent/podman' };
    const app = createSandbarApp({ env, log: createLogger('sandbar', env, () => true) });
    try {
      expect(app.logFile).toBe(path.join(home, 'logs', 'sandbar.log'));
      const text = readFileSync(app.logFile, 'utf8');
      // Logged before the tokens were loaded: the old sink opened only after them and missed these.
      expect(text).toContain(`created a new access token in ${app.tokenFiles.client}`);
      expect(text).toContain(`created a new access token in ${app.tokenFiles.panel}`);
      for (const file of Object.values(app.tokenFiles)) {
        const token = readFileSync(file, 'utf8').trim();
        expect(token.length).toBeGreaterThan(8);
        expect(text).not.toContain(token);
      }
      expect(readdirSync(path.join(home, 'logs'))).toEqual(['sandbar.log']);
    } finally {
      await app.dispose(0);
    }
  });
});
