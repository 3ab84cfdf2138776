// The user's folders in real sandboxes: read from a read-only folder, EROFS on a write there, a writable
// folder's write on the host, nothing executable, links out of a folder leading nowhere, a refused folder
// never mounted (health names it), executions.get listing the folders, a session seeing them, the pool
// refilled when they change, and no container left. One run holds most assertions: container starts are
// the cost. Docker mounts read-only folders only (writable ones are refused there, with the reason).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore, type SandbarCore } from '../../../electron/core.js';
import { containersOf, runtimeName, sandbox, underGvisor, waitFor } from '../helpers.js';

const CHECKS = String.raw`
import errno, json, os, subprocess
out = {}
out["read"] = open("/mnt/data/hello.txt").read()
try:
    open("/mnt/data/new.txt", "w").write("x")
    out["ro_write"] = "written"
except OSError as e:
    out["ro_write"] = errno.errorcode.get(e.errno, str(e.errno))
if os.path.isdir("/mnt/out"):
    try:
        open("/mnt/out/result.txt", "w").write("from the sandbox")
        out["rw_write"] = "written"
    except OSError as e:
        out["rw_write"] = errno.errorcode.get(e.errno, str(e.errno))
for name in ("data", "out"):
    exe = "/mnt/%s/tool" % name
    if os.path.exists(exe):
        try:
            subprocess.run([exe], check=False)
            out["exec_" + name] = "ran"
        except OSError as e:
            out["exec_" + name] = errno.errorcode.get(e.errno, str(e.errno))
try:
    out["passwd_link"] = open("/mnt/data/passwd").read()
except OSError as e:
    out["passwd_link"] = errno.errorcode.get(e.errno, str(e.errno))
try:
    out["secret_link"] = open("/mnt/data/secret").read()
except OSError as e:
    out["secret_link"] = errno.errorcode.get(e.errno, str(e.errno))
out["mounts"] = sorted(os.listdir("/mnt"))
out["options"] = {l.split()[1]: l.split()[3].split(",") for l in open("/proc/mounts") if l.split()[1].startswith("/mnt/")}
print(json.dumps(out))
`;

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-folders-it-')));
const home = path.join(base, 'home');
const data = path.join(base, 'data');
const outDir = path.join(base, 'out');
const secretDir = path.join(base, 'secret');
for (const d of [home, data, outDir, secretDir]) mkdirSync(d);
writeFileSync(path.join(data, 'hello.txt'), 'hello from the host');
copyFileSync('/bin/true', path.join(data, 'tool'));
copyFileSync('/bin/true', path.join(outDir, 'tool'));
chmodSync(path.join(data, 'tool'), 0o755);
chmodSync(path.join(outDir, 'tool'), 0o755);
writeFileSync(path.join(secretDir, 'token'), 'host secret');
symlinkSync('/etc/passwd', path.join(data, 'passwd'));
symlinkSync(path.join(secretDir, 'token'), path.join(data, 'secret'));
// The sandbox user (65534) writes here: the folder must let it (docs/SECURITY.md says which owner files get).
// The read-only folder is world-writable too: only the read-only mount stands in the way (EROFS, not EACCES).
chmodSync(outDir, 0o777);
chmodSync(data, 0o777);

const docker = runtimeName() === 'docker';
const env = () => ({ ...process.env, SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image });

function settingsFile(poolSize: number) {
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({
    poolSize,
    // No preloads: the pool test waits for a warm container, not for numpy.
    preload: [],
    ...(sandbox.runtime?.ociRuntime ? { ociRuntime: sandbox.runtime.ociRuntime } : {}),
    folders: [
      { name: 'data', path: data },
      { name: 'out', path: outDir, writable: true },
      // Refused: a link to SANDBAR_HOME is SANDBAR_HOME.
      { name: 'own', path: path.join(base, 'own-link') },
    ],
  }));
}
symlinkSync(home, path.join(base, 'own-link'));

describe.skipIf(!sandbox.available)('the user\'s folders in real sandboxes', () => {
  let core: SandbarCore | undefined;
  afterAll(async () => {
    await core?.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it('read-only, writable, never executable, links lead nowhere, a refused one never mounted, recorded in history', async () => {
    settingsFile(0);
    core = createCore({ env: env() });
    await core.start();
    const ticket = await core.runs.start({ code: CHECKS }, { client: { name: 'folders-test' } });
    const { execution: r } = await ticket.result;
    expect(r.exitReason, r.stderr || r.message).toBe('success');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out.read).toBe('hello from the host');
    expect(out.ro_write).toBe('EROFS');
    expect(out.exec_data).toBe('EACCES');
    // The link names /etc/passwd: inside the sandbox that is the image's file, never the host's.
    expect(out.passwd_link).not.toBe(readFileSync('/etc/passwd', 'utf8'));
    expect(out.secret_link).toBe('ENOENT');
    const options = out.options as Record<string, string[]>;
    expect(options['/mnt/data']).toEqual(expect.arrayContaining(['ro', 'noexec', ...(underGvisor ? [] : ['nosuid', 'nodev'])]));
    if (docker) {
      // Docker cannot make a writable bind noexec: the folder is refused there, never mounted.
      expect(out.mounts).toEqual(['data']);
    } else {
      expect(out.mounts).toEqual(['data', 'out']);
      expect(out.rw_write).toBe('written');
      expect(readFileSync(path.join(outDir, 'result.txt'), 'utf8')).toBe('from the sandbox');
      expect(out.exec_out).toBe('EACCES');
      expect(options['/mnt/out']).toEqual(expect.arrayContaining(['rw', 'noexec']));
    }
    expect(r.folders).toEqual([
      { name: 'data', mountPath: '/mnt/data', writable: false, path: data },
      ...(docker ? [] : [{ name: 'out', mountPath: '/mnt/out', writable: true, path: outDir }]),
    ]);
    await waitFor(() => core!.history.get(r.id)?.status === 'success', 5000);
    expect(core.history.get(r.id)?.folders).toEqual(r.folders);

    const report = await core.health({ probe: false });
    const row = report.checks.find((c) => c.id === 'folders');
    expect(row?.status).toBe('warn');
    expect(row?.detail).toContain(`own (${path.join(base, 'own-link')}) is Sandbar's own folder`);
    if (docker) expect(row?.detail).toContain('cannot be mounted writable on Docker');
    await core.dispose();
    expect(containersOf(core.engine.owner.instanceId)).toEqual([]);
    core = undefined;
  });

  it.skipIf(docker || underGvisor)('a session sees the folders; changing them refills the pool with the new list; nothing left', async () => {
    settingsFile(1);
    core = createCore({ env: env() });
    await core.start();
    const caller = { client: { name: 'folders-test' }, credential: 'test:folders' };
    const opened = await core.runs.start({ code: 'import os; print(sorted(os.listdir("/mnt")), open("/mnt/data/hello.txt").read())', session: 'new' }, caller);
    const first = await opened.result;
    expect(first.execution.exitReason, first.execution.stderr).toBe('success');
    expect(first.execution.stdout).toBe("['data', 'out'] hello from the host\n");
    await core.sessions!.close(opened.session!.id);

    const warm: boolean[] = [];
    core.engine.subscribe((e) => {
      if (e.type === 'started') warm.push(e.warm);
    });
    const patch = { folders: [{ name: 'data', path: data }] };
    core.settingsService.update(patch, { confirmed: core.settingsService.hostExecChanges(patch) });
    // Drained at once; refilled with sandboxes of the new spec (one, or more while the burst allowance lasts).
    expect(core.engine.snapshot().pool.ready).toBe(0);
    expect(await waitFor(() => core!.engine.snapshot().pool.ready >= 1 && !core!.engine.snapshot().pool.refilling, 90_000, 200), JSON.stringify(core.engine.snapshot().pool)).toBe(true);
    const after = await (await core.runs.start({ code: 'import os; print(sorted(os.listdir("/mnt")))' }, caller)).result;
    expect(after.execution.stdout).toBe("['data']\n");
    expect(warm).toEqual([true]);
    expect(after.execution.folders).toEqual([{ name: 'data', mountPath: '/mnt/data', writable: false, path: data }]);
    await core.dispose();
    expect(containersOf(core.engine.owner.instanceId)).toEqual([]);
    core = undefined;
  });
});
