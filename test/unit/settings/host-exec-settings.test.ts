// Settings that run something on the host (server commands, the runtime binary, the OCI runtime, seccomp)
// are refused unless exactly those changes were confirmed; the control API confirms only over IPC, through
// the desktop's native dialog. A refusal writes nothing.
import { describe, expect, it, vi } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { ControlRouter } from '../../../electron/control/router.js';
import { describeServerEntry, hostExecChanges } from '../../../electron/settings/host-exec-fields.js';
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

describe('hostExecChanges and describeServerEntry', () => {
  it('shows a server as the command line it would start, with env names but not values', () => {
    expect(describeServerEntry({ command: 'npx', args: ['-y', '@scope/server', 'two words'], env: { TOKEN: 'secret' }, cwd: '/srv' })).toBe(
      'TOKEN=… npx -y @scope/server "two words" (in /srv)',
    );
    expect(describeServerEntry({ url: 'https://mcp.example/mcp' })).toBe('HTTP server https://mcp.example/mcp');
  });

  it('counts only real changes', () => {
    const current = { runtime: null, seccomp: 'sandbar' as const, mcpServers: { a: { command: 'x' } } };
    expect(hostExecChanges(current, { runtime: null, seccomp: 'sandbar', mcpServers: { a: { command: 'x' }, b: null } })).toEqual([]);
    expect(hostExecChanges(current, { ociRuntime: 'runsc' })).toEqual([{ field: 'ociRuntime', command: 'ociRuntime: runsc' }]);
  });
});
