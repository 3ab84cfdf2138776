// Temporary Sandbar homes with a settings file written by hand, and services over conf stores on them.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { SettingsService } from '../../../electron/settings/settings-service.js';
import type { SettingsLayer } from '../../../electron/settings/settings-layers.js';
import { openConfStore } from '../../../electron/settings/settings-store.js';
import { AppError } from '../../../shared/errors.js';

/** A home whose settings.json holds exactly `raw` (or nothing when undefined). */
export function homeWith(raw?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-settings-'));
  if (raw !== undefined) writeFileSync(path.join(dir, 'settings.json'), raw);
  return dir;
}

/** Written with two-space indents: conf writes tabs, so unchanged bytes prove nothing was written. */
export const json = (value: unknown) => JSON.stringify(value, null, 2);

export const settingsFile = (home: string) => path.join(home, 'settings.json');
export const fileText = (home: string) => readFileSync(settingsFile(home), 'utf8');
export const fileJson = (home: string): unknown => JSON.parse(fileText(home));
export const asideFiles = (home: string) => readdirSync(home).filter((f) => f.startsWith('settings.json.corrupt-'));

export function serviceOn(home: string, env: NodeJS.ProcessEnv = {}, flags?: SettingsLayer): SettingsService {
  const { store, warning } = openConfStore(home);
  return new SettingsService({ store, env, ...(flags ? { flags } : {}), ...(warning ? { warnings: [warning] } : {}) });
}

export function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected the update to be refused');
}
