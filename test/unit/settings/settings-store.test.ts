// The conf store over <home>/settings.json: a corrupt file is moved aside (bytes kept) before conf sees it,
// an invalid value in a good file is an error naming it, and writes are owner-only.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../electron/settings/load-settings.js';
import { SettingsService } from '../../../electron/settings/settings-service.js';
import { openConfStore, openReadOnlyStore } from '../../../electron/settings/settings-store.js';
import { AppError } from '../../../shared/errors.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { asideFiles, fileJson, fileText, homeWith, json, serviceOn, settingsFile } from './settings-helpers.js';

describe('openConfStore', () => {
  it('opens exactly <home>/settings.json and reads what is there', () => {
    const home = homeWith(json({ poolSize: 3, limits: { memory: '1g' } }));
    const { store, warning } = openConfStore(home);
    expect(store.path).toBe(settingsFile(home));
    expect(warning).toBeUndefined();
    expect(store.store).toEqual({ poolSize: 3, limits: { memory: '1g' } });
  });

  it('creates the file on the first write, owner-only', () => {
    const home = homeWith();
    const { store } = openConfStore(home);
    expect(existsSync(settingsFile(home))).toBe(false);
    store.store = { httpPort: 0 };
    expect(fileJson(home)).toEqual({ httpPort: 0 });
    if (process.platform !== 'win32') expect(statSync(settingsFile(home)).mode & 0o777).toBe(0o600);
  });

  it('reads an empty file as no settings, and leaves it where it is', () => {
    const home = homeWith('  \n');
    const opened = openConfStore(home);
    expect(opened.warning).toBeUndefined();
    expect(opened.store.store).toEqual({});
    expect(asideFiles(home)).toEqual([]);
    expect(new SettingsService({ store: opened.store, env: {} }).get()).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    ['not JSON', '{"limits": {"memory": "1g"'],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"poolSize"'],
  ])('moves a file that is %s aside with its bytes, uses the defaults and says so', (_kind, raw) => {
    const home = homeWith(raw);
    const service = serviceOn(home);
    expect(service.get()).toEqual(DEFAULT_SETTINGS);
    expect(existsSync(settingsFile(home))).toBe(false);
    const aside = asideFiles(home);
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(home, aside[0]!), 'utf8')).toBe(raw);
    expect(service.warnings).toHaveLength(1);
    expect(service.warnings[0]).toContain(`moved to ${path.join(home, aside[0]!)}`);
    expect(service.warnings[0]).toContain('defaults are in use');
    // The next save starts a fresh file; the moved copy stays.
    service.update({ poolSize: 1 });
    expect(fileJson(home)).toEqual({ poolSize: 1 });
    expect(readFileSync(path.join(home, aside[0]!), 'utf8')).toBe(raw);
  });

  it('reports an invalid value in a valid file by file and path, and does not move the file', () => {
    const raw = json({ limits: { memory: 'lots' } });
    const home = homeWith(raw);
    const service = serviceOn(home);
    expect(service.warnings).toEqual([]);
    let err: unknown;
    try {
      service.get();
    } catch (caught) {
      err = caught;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_config');
    expect((err as AppError).message).toBe('Invalid settings.json: limits.memory="lots": must be a size such as 512m or 1g');
    expect(fileText(home)).toBe(raw);
    expect(asideFiles(home)).toEqual([]);
  });

  it('agrees with loadSettings (the CLI’s read) on the same file and environment', () => {
    const home = homeWith(json({ httpPort: 9000, limits: { pids: 300 }, serverPolicies: { a: 'deny' } }));
    const env = { SANDBAR_HOME: home, MCP_BRIDGE_MEMORY: '2g' };
    expect(loadSettings({ env }).settings).toEqual(serviceOn(home, env).get());
  });
});

describe('openReadOnlyStore', () => {
  it('reads the file as it is and refuses to write', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-ro-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ poolSize: 3 }));
    const { store, warning } = openReadOnlyStore(home);
    expect(warning).toBeUndefined();
    expect(store.store).toEqual({ poolSize: 3 });
    expect(() => {
      store.store = { poolSize: 4 };
    }).toThrow(/only reads/);
    expect(JSON.parse(readFileSync(path.join(home, 'settings.json'), 'utf8'))).toEqual({ poolSize: 3 });
  });

  it('moves a corrupt file aside with a warning, as the writable store does', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-ro-'));
    writeFileSync(path.join(home, 'settings.json'), '[1, 2]');
    const { store, warning } = openReadOnlyStore(home);
    expect(store.store).toEqual({});
    expect(warning).toMatch(/moved to .*settings\.json\.corrupt-/);
  });
});
