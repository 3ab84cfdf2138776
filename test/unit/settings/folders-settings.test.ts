// `folders` through the settings service and the control API: host-affecting (forbidden over HTTP, written
// only after the desktop's confirmation), judged on update (a refused path is an error naming its rule,
// nothing written), and a refused folder already in settings.json never blocks other edits.
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { ControlRouter } from '../../../electron/control/router.js';
import { describeFolders } from '../../../electron/settings/folder-change.js';
import { fileText, homeWith, json, serviceOn } from './settings-helpers.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const userHome = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-folders-home-')));
mkdirSync(path.join(userHome, 'data'));
mkdirSync(path.join(userHome, '.ssh'));
const DATA = path.join(userHome, 'data');

function routerOn(home: string, confirmHostExec?: ControlServices['confirmHostExec']) {
  const settings = serviceOn(home, { HOME: userHome, SANDBAR_HOME: home });
  const services = { settings, ...(confirmHostExec ? { confirmHostExec } : {}) } as unknown as ControlServices;
  return { router: new ControlRouter(controlMethods(services), quiet as never), settings };
}

describe('the folders setting', () => {
  it('is refused over HTTP with forbidden, and the settings file stays byte-identical', async () => {
    const original = json({ poolSize: 1 });
    const home = homeWith(original);
    const confirm = vi.fn(async () => true);
    const { router } = routerOn(home, confirm);
    const answer = await router.call('settings.update', { patch: { folders: [{ name: 'data', path: DATA }] } }, { transport: 'http' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden', fields: { folders: expect.stringContaining('desktop app') } } });
    expect(answer).toMatchObject({ error: { message: expect.stringMatching(/^folders decides which of this computer's files every sandbox sees and cannot be changed from here\. Edit .*settings\.json/) } });
    expect(confirm).not.toHaveBeenCalled();
    expect(fileText(home)).toBe(original);
  });

  it('over IPC asks with the mounts it would make, and writes only when allowed', async () => {
    const original = json({});
    const home = homeWith(original);
    const confirm = vi.fn(async () => false);
    const { router, settings } = routerOn(home, confirm);
    const patch = { folders: [{ name: 'data', path: DATA, writable: true }] };
    expect(await router.call('settings.update', { patch }, { transport: 'ipc' })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(confirm).toHaveBeenCalledWith([{ field: 'folders', command: `folders: ${DATA} → /mnt/data (writable)` }]);
    expect(fileText(home)).toBe(original);
    confirm.mockResolvedValue(true);
    expect(await router.call('settings.update', { patch }, { transport: 'ipc' })).toMatchObject({ ok: true, value: { changed: ['folders'] } });
    expect(settings.get().folders).toEqual(patch.folders);
    // Removing every folder is a change too: confirmed like adding one.
    confirm.mockClear();
    expect(await router.call('settings.update', { patch: { folders: [] } }, { transport: 'ipc' })).toMatchObject({ ok: true });
    expect(confirm).toHaveBeenCalledWith([{ field: 'folders', command: 'folders: none' }]);
  });

  it('refuses a protected path with its rule before any dialog, and writes nothing', async () => {
    const original = json({});
    const home = homeWith(original);
    const confirm = vi.fn(async () => true);
    const { router } = routerOn(home, confirm);
    for (const [p, rule] of [
      [path.join(userHome, '.ssh'), 'is ~/.ssh'],
      [home, "is Sandbar's own folder"],
      ['/etc', 'is /etc'],
      [path.join(userHome, 'missing'), 'does not exist'],
    ] as const) {
      const answer = await router.call('settings.update', { patch: { folders: [{ name: 'x', path: p }] } }, { transport: 'ipc' });
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_config', fields: { 'folders.0.path': expect.stringContaining(`${p} cannot be a folder in the sandbox: it ${rule}`) } } });
    }
    expect(confirm).not.toHaveBeenCalled();
    expect(fileText(home)).toBe(original);
  });

  it('a refused folder already in settings.json does not block other edits', () => {
    const home = homeWith(json({ folders: [{ name: 'keys', path: path.join(userHome, '.ssh') }] }));
    const settings = serviceOn(home, { HOME: userHome, SANDBAR_HOME: home });
    expect(settings.update({ poolSize: 1 }).changed).toEqual(['poolSize']);
  });

  it('folders.pick: the desktop\'s picker over IPC only; HTTP and a headless instance are refused', async () => {
    const home = homeWith(json({}));
    const settings = serviceOn(home, { HOME: userHome, SANDBAR_HOME: home });
    const pickFolder = vi.fn(async () => DATA);
    const router = new ControlRouter(controlMethods({ settings, pickFolder } as unknown as ControlServices), quiet as never);
    expect(await router.call('folders.pick', {}, { transport: 'ipc' })).toEqual({ ok: true, value: { path: DATA } });
    expect(await router.call('folders.pick', {}, { transport: 'http' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('desktop app') } });
    expect(pickFolder).toHaveBeenCalledTimes(1);
    const headless = new ControlRouter(controlMethods({ settings } as unknown as ControlServices), quiet as never);
    expect(await headless.call('folders.pick', {}, { transport: 'ipc' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('describes the list as the mounts a person checks', () => {
    expect(describeFolders([{ name: 'a', path: '/x' }, { name: 'b', path: '/y', writable: true }])).toBe('folders: /x → /mnt/a (read-only); /y → /mnt/b (writable)');
  });
});
