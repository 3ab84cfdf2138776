// The settings service: patches merged into the file and written, the effective changes reported once,
// locked fields (set by a variable or a flag) refused, and nothing written when an update is refused.
import { writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { flagLayer } from '../../../electron/settings/settings-layers.js';
import { SettingsService } from '../../../electron/settings/settings-service.js';
import type { SettingsChange } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { fileJson, fileText, homeWith, json, refusal, serviceOn, settingsFile } from './settings-helpers.js';

const port = (value: number) => flagLayer({ '--port': { path: 'httpPort', value } });

describe('SettingsService.update', () => {
  it('merges nested limits into the file, keeps what the user wrote, and writes it', () => {
    const home = homeWith(json({ image: 'file:1', limits: { pids: 200 }, note: 'mine', outputMode: 'compact' }));
    const service = serviceOn(home);
    const change = service.update({ limits: { memory: '1g' } });
    expect(fileJson(home)).toEqual({ image: 'file:1', limits: { pids: 200, memory: '1g' }, note: 'mine', outputMode: 'compact' });
    expect(change.changed).toEqual(['limits.memory']);
    expect(change.settings.limits).toEqual({ ...DEFAULT_LIMITS, pids: 200, memory: '1g' });
    expect(service.get()).toEqual(change.settings);
    // A fresh service (the next start) reads the same from disk.
    expect(serviceOn(home).get()).toEqual(change.settings);
  });

  it('lists exactly the paths whose effective value changed', () => {
    const service = serviceOn(homeWith());
    const change = service.update({
      httpPort: 9001,
      outputMode: DEFAULT_SETTINGS.outputMode,
      limits: { cpus: 2, memory: DEFAULT_LIMITS.memory },
      launchAtLogin: true,
    });
    expect([...change.changed].sort()).toEqual(['httpPort', 'launchAtLogin', 'limits.cpus']);
    expect(change.settings).toEqual({ ...DEFAULT_SETTINGS, httpPort: 9001, launchAtLogin: true, limits: { ...DEFAULT_LIMITS, cpus: 2 } });
  });

  it('merges server records key by key, replaces each entry whole, and removes a key sent as null', () => {
    const home = homeWith(
      json({ serverPolicies: { a: 'deny' }, mcpServers: { x: { command: 'old', env: { A: '1' } }, y: { url: 'http://y' } }, importClients: ['cursor', 'vscode'] }),
    );
    const service = serviceOn(home);
    expect(service.update({ serverPolicies: { b: 'deny' } }).changed).toEqual(['serverPolicies.b']);
    expect(service.get().serverPolicies).toEqual({ a: 'deny', b: 'deny' });
    expect(service.update({ serverPolicies: { a: null } }).changed).toEqual(['serverPolicies.a']);
    expect(service.get().serverPolicies).toEqual({ b: 'deny' });

    const edit = { mcpServers: { x: { url: 'http://x' } } };
    expect(service.update(edit, { confirmed: service.hostExecChanges(edit) }).changed).toEqual(['mcpServers.x']);
    expect(service.get().mcpServers).toEqual({ x: { url: 'http://x' }, y: { url: 'http://y' } });

    // A client added to importClients brings its servers: host-executing, so it needs confirming too.
    const clients = { importClients: ['claude-code'] };
    expect(service.update(clients, { confirmed: service.hostExecChanges(clients) }).changed).toEqual(['importClients']);
    expect(fileJson(home)).toEqual({ serverPolicies: { b: 'deny' }, mcpServers: { x: { url: 'http://x' }, y: { url: 'http://y' } }, importClients: ['claude-code'] });
  });

  it('merges into the file as it is on disk now, so a hand edit since the last read is kept', () => {
    const home = homeWith(json({ poolSize: 1 }));
    const service = serviceOn(home);
    expect(service.get().poolSize).toBe(1);
    writeFileSync(settingsFile(home), json({ poolSize: 5 }));
    const change = service.update({ concurrency: 8 });
    expect(fileJson(home)).toEqual({ poolSize: 5, concurrency: 8 });
    expect([...change.changed].sort()).toEqual(['concurrency', 'poolSize']);
  });

  it('writes nothing and reports nothing for an update that changes nothing', () => {
    const original = json({ httpPort: 9000 });
    const home = homeWith(original);
    const service = serviceOn(home);
    const listener = vi.fn();
    service.subscribe(listener);
    expect(service.update({ httpPort: 9000 })).toEqual({ settings: service.get(), changed: [] });
    expect(service.update({})).toEqual({ settings: service.get(), changed: [] });
    expect(fileText(home)).toBe(original);
    expect(listener).not.toHaveBeenCalled();
  });

  it('returns copies: changing what get() or an update returned changes nothing inside', () => {
    const service = serviceOn(homeWith());
    service.get().limits.memory = '9g';
    service.update({ poolSize: 3 }).settings.poolSize = 9;
    expect(service.get()).toMatchObject({ poolSize: 3, limits: { memory: DEFAULT_LIMITS.memory } });
  });

  it('refuses a default timeout above the maximum (no clamping from the panel) and keeps the file', () => {
    const original = json({ limits: { maxTimeoutSec: 60 } });
    const home = homeWith(original);
    const err = refusal(() => serviceOn(home).update({ limits: { timeoutSec: 90 } }));
    expect(err.fields).toEqual({ 'limits.timeoutSec': 'the default timeout cannot exceed the maximum timeout' });
    expect(fileText(home)).toBe(original);
  });

  it('does not rewrite a file value that loading clamped; the clamp stays a load-time rule', () => {
    const original = json({ limits: { timeoutSec: 500 } });
    const home = homeWith(original);
    const service = serviceOn(home);
    expect(service.get().limits.timeoutSec).toBe(DEFAULT_LIMITS.maxTimeoutSec);
    // The file still says 500, so saving anything else points at the field to fix rather than losing it.
    expect(refusal(() => service.update({ poolSize: 3 })).fields).toEqual({ 'limits.timeoutSec': 'the default timeout cannot exceed the maximum timeout' });
    expect(fileText(home)).toBe(original);
    service.update({ limits: { timeoutSec: 60 } });
    expect(fileJson(home)).toEqual({ limits: { timeoutSec: 60 } });
  });

  it('refuses a patch that is not an object', () => {
    const err = refusal(() => serviceOn(homeWith()).update([] as unknown as Record<string, unknown>));
    expect(err.code).toBe('invalid_request');
  });
});

describe('SettingsService.subscribe', () => {
  it('calls each subscriber once per effective change, with the change, until unsubscribed', () => {
    const service = serviceOn(homeWith());
    const seen: SettingsChange[] = [];
    const other = vi.fn();
    const stop = service.subscribe((change) => seen.push(change));
    service.subscribe(other);
    service.update({ limits: { pids: 64 } });
    service.update({ limits: { pids: 64 } });
    expect(() => service.update({ poolSize: 100 })).toThrow(AppError);
    expect(seen).toEqual([{ settings: service.get(), changed: ['limits.pids'] }]);
    stop();
    service.update({ poolSize: 0 });
    expect(seen).toHaveLength(1);
    expect(other).toHaveBeenCalledTimes(2);
    expect(other).toHaveBeenLastCalledWith({ settings: service.get(), changed: ['poolSize'] });
  });

  it('keeps going when a subscriber throws: the change is saved and the others still hear of it', () => {
    const home = homeWith();
    const service = serviceOn(home);
    const after = vi.fn();
    service.subscribe(() => {
      throw new Error('broken panel');
    });
    service.subscribe(after);
    expect(service.update({ concurrency: 2 }).changed).toEqual(['concurrency']);
    expect(after).toHaveBeenCalledOnce();
    expect(fileJson(home)).toEqual({ concurrency: 2 });
  });
});

describe('locked settings', () => {
  const env = { MCP_BRIDGE_MEMORY: '256m' };

  it('shows fields set by a variable or a flag as locked, with what set them', () => {
    const home = homeWith(json({ limits: { memory: '1g' } }));
    const view = serviceOn(home, env, port(8123)).view();
    expect(view.locked).toEqual([
      { path: 'httpPort', source: '--port' },
      { path: 'limits.memory', source: 'MCP_BRIDGE_MEMORY' },
    ]);
    expect(view.settings).toMatchObject({ httpPort: 8123, limits: { memory: '256m' } });
    expect(view.defaults).toEqual(DEFAULT_SETTINGS);
    expect(view.file).toBe(settingsFile(home));
  });

  it('refuses to change a field a variable sets, naming the variable, and writes nothing', () => {
    const original = json({ limits: { pids: 100 } });
    const home = homeWith(original);
    const service = serviceOn(home, env);
    const err = refusal(() => service.update({ limits: { memory: '1g' } }));
    expect(err.code).toBe('invalid_config');
    expect(Object.keys(err.fields!)).toEqual(['limits.memory']);
    expect(err.fields!['limits.memory']).toContain('MCP_BRIDGE_MEMORY');
    expect(err.message).toContain('MCP_BRIDGE_MEMORY');
    expect(fileText(home)).toBe(original);
    expect(service.get().limits.memory).toBe('256m');
  });

  it('refuses to change a field a flag sets, naming the flag', () => {
    const err = refusal(() => serviceOn(homeWith(), {}, port(8123)).update({ httpPort: 9000 }));
    expect(err.fields).toEqual({ httpPort: expect.stringContaining('--port') });
  });

  it('refuses to replace the object that holds a locked field', () => {
    const err = refusal(() => serviceOn(homeWith(), env).update({ limits: null }));
    expect(err.fields!.limits).toContain('MCP_BRIDGE_MEMORY');
  });

  it('accepts a locked field sent unchanged (a whole form) and leaves it out of the file', () => {
    const home = homeWith(json({ limits: { pids: 100 } }));
    const service = serviceOn(home, env);
    const change = service.update({ limits: { ...service.get().limits, pids: 64 } });
    expect(change.changed).toEqual(['limits.pids']);
    expect((fileJson(home) as { limits: Record<string, unknown> }).limits).not.toHaveProperty('memory');
    expect((fileJson(home) as { limits: Record<string, unknown> }).limits.pids).toBe(64);
  });

  it('lets a higher maximum from the environment admit a higher default timeout from the panel', () => {
    const service = serviceOn(homeWith(), { MCP_BRIDGE_MAX_TIMEOUT: '600' });
    expect(service.update({ limits: { timeoutSec: 300 } }).settings.limits).toMatchObject({ timeoutSec: 300, maxTimeoutSec: 600 });
  });
});

describe('SettingsService reading', () => {
  it('does no I/O in its constructor and reports an unreadable store on first use', () => {
    const store = {
      path: '/nowhere/settings.json',
      get store(): Record<string, unknown> {
        throw new Error('EACCES');
      },
      set store(_value: Record<string, unknown>) {},
    };
    const service = new SettingsService({ store, env: {} });
    expect(() => service.get()).toThrow(/Cannot read the settings file \/nowhere\/settings\.json: EACCES/);
  });

  it('names the variable of an invalid environment value on first use', () => {
    expect(() => serviceOn(homeWith(), { MCP_BRIDGE_PIDS: '2' }).get()).toThrow('Invalid MCP_BRIDGE_PIDS="2": must be at least 16');
  });
});
