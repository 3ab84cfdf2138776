// Settings that run something on the host (server commands, the runtime binary, the OCI runtime, seccomp)
// are refused unless exactly those changes were confirmed; the control API confirms only over IPC, through
// the desktop's native dialog. A refusal writes nothing.
import { describe, expect, it, vi } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { ControlRouter } from '../../../electron/control/router.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverServers } from '../../../electron/proxy/discovery/discover.js';
import { SettingsService } from '../../../electron/settings/settings-service.js';
import { openConfStore } from '../../../electron/settings/settings-store.js';
import { describeServerEntry, hostExecChanges } from '../../../electron/settings/host-exec-fields.js';
import { hostExecDialog } from '../../../electron/shell/host-exec-dialog.js';
import type { Settings } from '../../../shared/settings.js';
import { fileText, homeWith, json, refusal, serviceOn } from './settings-helpers.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const ORIGINAL = json({ mcpServers: { old: { command: 'npx', args: ['-y', 'server-old'] } }, serverPolicies: {} });

/** The real router over the real settings service; every other service is absent (never reached). */
function routerOn(home: string, confirmHostExec?: ControlServices['confirmHostExec']) {
  const settings = serviceOn(home);
  const services = { settings, ...(confirmHostExec ? { confirmHostExec } : {}) } as unknown as ControlServices;
  return { router: new ControlRouter(controlMethods(services), quiet as never), settings };
}

const HOST_EXEC_PATCHES: [string, Record<string, unknown>][] = [
  ['a new server', { mcpServers: { x: { command: '/bin/sh', args: ['-c', 'id > /tmp/pwned'] } } }],
  ['an edited server', { mcpServers: { old: { command: '/bin/sh' } } }],
  ['runtime', { runtime: '/tmp/evil-podman' }],
  ['ociRuntime', { ociRuntime: '/tmp/evil-runc' }],
  ['seccomp', { seccomp: 'runtime-default' }],
  ['kubeconfig (its exec credential plugins run on the host)', { kubeconfig: '/tmp/evil-kubeconfig' }],
  ['importClients (the imported configs\' servers run on the host)', { importClients: ['cursor'] }],
  ['allowSelfServer (lets a config that launches Sandbar through)', { allowSelfServer: true }],
  ['a secret (a credential sent to a host of the patch\'s choice)', { secrets: { API_KEY: { env: 'HOME', hosts: ['attacker.example'] } } }],
  ['egressCaFile (which upstream certificates are trusted)', { egressCaFile: '/tmp/evil-ca.pem' }],
];

describe('host-executing settings', () => {
  it.each(HOST_EXEC_PATCHES)('refuses %s over HTTP with forbidden, naming the field, and writes nothing', async (_what, patch) => {
    const home = homeWith(ORIGINAL);
    const confirm = vi.fn(async () => true);
    const { router } = routerOn(home, confirm);
    const answer = await router.call('settings.update', { patch }, { transport: 'http' });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('forbidden');
    const field = Object.keys(answer.error.fields ?? {})[0]!;
    expect(Object.keys(patch).some((k) => field.startsWith(k))).toBe(true);
    expect(answer.error.message).toContain('settings.json');
    expect(answer.error.message).toContain('desktop app');
    expect(confirm).not.toHaveBeenCalled();
    expect(fileText(home)).toBe(ORIGINAL);
  });

  it('over IPC asks with the exact command, and writes only when the person allows it', async () => {
    const home = homeWith(ORIGINAL);
    const confirm = vi.fn(async () => false);
    const { router, settings } = routerOn(home, confirm);
    const patch = { mcpServers: { x: { command: '/bin/sh', args: ['-c', 'id > /tmp/pwned'] } } };
    const declined = await router.call('settings.update', { patch }, { transport: 'ipc' });
    expect(declined).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(confirm).toHaveBeenCalledWith([{ field: 'mcpServers.x', command: '/bin/sh -c "id > /tmp/pwned"' }]);
    expect(fileText(home)).toBe(ORIGINAL);

    confirm.mockResolvedValue(true);
    const allowed = await router.call('settings.update', { patch }, { transport: 'ipc' });
    expect(allowed).toMatchObject({ ok: true, value: { changed: ['mcpServers.x'] } });
    expect(settings.get().mcpServers.x).toEqual(patch.mcpServers.x);
  });

  it('without a confirmation dialog (headless), IPC is refused like HTTP', async () => {
    const home = homeWith(ORIGINAL);
    const { router } = routerOn(home);
    const answer = await router.call('settings.update', { patch: { runtime: 'docker' } }, { transport: 'ipc' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fileText(home)).toBe(ORIGINAL);
  });

  it('lets HTTP remove a server, change its policy, and resend host fields unchanged', async () => {
    const home = homeWith(ORIGINAL);
    const { router, settings } = routerOn(home);
    const same = await router.call('settings.update', { patch: { seccomp: 'sandbar', runtime: null, mcpServers: { old: { command: 'npx', args: ['-y', 'server-old'] } } } });
    expect(same).toMatchObject({ ok: true, value: { changed: [] } });
    expect(await router.call('settings.update', { patch: { serverPolicies: { old: 'deny' } } })).toMatchObject({ ok: true });
    expect(await router.call('settings.update', { patch: { mcpServers: { old: null } } })).toMatchObject({ ok: true, value: { changed: ['mcpServers.old'] } });
    expect(settings.get().mcpServers).toEqual({});
  });

  it('refuses a confirmation for other changes than the ones made (the command changed in between)', () => {
    const home = homeWith(ORIGINAL);
    const settings = serviceOn(home);
    const confirmed = settings.hostExecChanges({ runtime: 'docker' });
    const err = refusal(() => settings.update({ runtime: '/tmp/evil' }, { confirmed }));
    expect(err.code).toBe('forbidden');
    expect(fileText(home)).toBe(ORIGINAL);
  });

  it('validates before it asks: an invalid entry is a validation error, never a dialog', async () => {
    const confirm = vi.fn(async () => true);
    const { router } = routerOn(homeWith(ORIGINAL), confirm);
    const answer = await router.call('settings.update', { patch: { mcpServers: { x: { command: 'sh', shell: true } } } }, { transport: 'ipc' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_config' } });
    expect(confirm).not.toHaveBeenCalled();
  });
});

/** A service whose preview is real discovery over `home` (a client config there names a server). */
function previewingService(home: string) {
  const { store } = openConfStore(home);
  const servers = (s: Settings) =>
    discoverServers({ home, env: {}, platform: 'linux', settingsServers: [], importClients: s.importClients, allowSelf: s.allowSelfServer, ownPort: null }).servers;
  return new SettingsService({ store, env: {}, serversPreview: servers });
}

describe('server sources (importClients, allowSelfServer)', () => {
  it('over IPC the confirmation lists the commands an imported client config would add, env and all', async () => {
    const home = homeWith(ORIGINAL);
    mkdirSync(path.join(home, '.cursor'));
    writeFileSync(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['server-fs'], env: { LD_PRELOAD: '/tmp/x.so', API_TOKEN: 'hunter2' } } } }));
    const settings = previewingService(home);
    const confirm = vi.fn(async () => false);
    const router = new ControlRouter(controlMethods({ settings, confirmHostExec: confirm } as unknown as ControlServices), quiet as never);
    const answer = await router.call('settings.update', { patch: { importClients: ['cursor'] } }, { transport: 'ipc' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const [[changes]] = confirm.mock.calls as unknown as [[{ field: string; command: string; notes?: string[] }[]]];
    expect(changes).toHaveLength(1);
    expect(changes[0]!.field).toBe('importClients');
    expect(changes[0]!.command).toContain('LD_PRELOAD=/tmp/x.so API_TOKEN=••••(hidden) npx server-fs (server fs from ');
    expect(changes[0]!.command).not.toContain('hunter2');
    expect(changes[0]!.notes).toEqual([expect.stringMatching(/^LD_PRELOAD changes how programs load libraries/)]);
    expect(hostExecDialog(changes).detail).toContain('⚠ LD_PRELOAD changes how programs load libraries');
    expect(fileText(home)).toBe(ORIGINAL);
  });

  it('still asks when the configs name no server today, and narrowing a source never asks', () => {
    const settings = previewingService(homeWith(ORIGINAL));
    expect(settings.hostExecChanges({ allowSelfServer: true })).toEqual([
      { field: 'allowSelfServer', command: expect.stringContaining('allowSelfServer: true (no server in these configs now') },
    ]);
    expect(settings.hostExecChanges({ importClients: [], allowSelfServer: false })).toEqual([]);
  });
});

describe('hostExecChanges and describeServerEntry', () => {
  it('shows a server as the command line it would start, env values in full unless they look secret', () => {
    expect(describeServerEntry({ command: 'npx', args: ['-y', '@scope/server', 'two words'], env: { TOKEN: 'secret', MODE: 'fast' }, cwd: '/srv' })).toBe(
      'TOKEN=••••(hidden) MODE=fast npx -y @scope/server "two words" (in /srv)',
    );
    // A token-shaped value is hidden whatever its name; a path is not a token.
    expect(describeServerEntry({ command: 'x', env: { GH: 'ghp_0123456789abcdefABCDEF', OTHER: 'a1B2c3D4e5F6g7H8i9J0k1L2m3', HOME_DIR: '/home/me/some/long/folder1' } })).toBe(
      'GH=••••(hidden) OTHER=••••(hidden) HOME_DIR=/home/me/some/long/folder1 x',
    );
    // Escapes and bidi controls are written out, never drawn.
    expect(describeServerEntry({ command: 'x', args: ['\u001b[2Jok\u202e'] })).toBe('x "\\u001b[2Jok\\u202e"');
    expect(describeServerEntry({ url: 'https://mcp.example/mcp' })).toBe('HTTP server https://mcp.example/mcp');
    expect(describeServerEntry({ url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer abc', 'X-Team': 'blue' } })).toBe(
      'HTTP server https://mcp.example/mcp with headers Authorization=••••(hidden) X-Team=blue',
    );
  });

  it('counts only real changes', () => {
    const current = { runtime: null, seccomp: 'sandbar' as const, mcpServers: { a: { command: 'x' } } };
    expect(hostExecChanges(current, { runtime: null, seccomp: 'sandbar', mcpServers: { a: { command: 'x' }, b: null } })).toEqual([]);
    expect(hostExecChanges(current, { ociRuntime: 'runsc' })).toEqual([{ field: 'ociRuntime', command: 'ociRuntime: runsc' }]);
  });

  it('names loader and path variables in words', () => {
    const env = { PATH: '/tmp/bin', DYLD_INSERT_LIBRARIES: 'x', NODE_OPTIONS: '--require /tmp/a.js', PYTHONPATH: '/tmp', LANG: 'C' };
    const [change] = hostExecChanges({}, { mcpServers: { s: { command: 'node', env } } });
    expect(change!.notes).toEqual([
      expect.stringMatching(/^PATH changes where programs are found/),
      expect.stringMatching(/^DYLD_INSERT_LIBRARIES changes how macOS loads libraries/),
      expect.stringMatching(/^NODE_OPTIONS changes what Node\.js loads/),
      expect.stringMatching(/^PYTHONPATH changes what Python loads/),
    ]);
    expect(change!.command).toBe('PATH=/tmp/bin DYLD_INSERT_LIBRARIES=x NODE_OPTIONS="--require /tmp/a.js" PYTHONPATH=/tmp LANG=C node');
  });
});
