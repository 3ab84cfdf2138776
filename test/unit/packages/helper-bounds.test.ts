// The package helpers' bounds without a container: the FIFO slots (two at once), a shared build that one
// caller's cancel does not stop, the unpacking that fixes owner and modes and stops at its byte cap, the
// helper's own lifetime on its command line, and a run's spec that mounts its own layer only.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Header } from 'tar';
import { describe, expect, it } from 'vitest';
import { HelperSlots, MAX_PACKAGE_HELPERS, SharedBuild } from '../../../electron/packages/helper-slots.js';
import { extractLayer, maskedMode } from '../../../electron/packages/layer-extract.js';
import { pipSpec } from '../../../electron/packages/pip-container.js';
import { argsFor } from '../../../electron/sandbox/cli/container-args.js';
import { containerSpecOf, engineConfigOf, packageSpecOf } from '../../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';

const testableConfig = () => engineConfigOf(DEFAULT_SETTINGS);

describe('HelperSlots', () => {
  it('lets two helpers run at once and starts the rest first come, first served', async () => {
    expect(MAX_PACKAGE_HELPERS).toBe(2);
    const slots = new HelperSlots();
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const all = [0, 1, 2, 3].map((i) => slots.acquire().then((release) => (started.push(i), releases.push(release))));
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1]);
    expect(slots.queued).toBe(2);
    releases[1]!();
    releases[1]!(); // a second release of the same slot frees nothing more
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    expect(slots.inUse).toBe(2);
    releases[0]!();
    await Promise.all(all);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('drops a waiter whose signal aborts, without taking a slot', async () => {
    const slots = new HelperSlots(1);
    const first = await slots.acquire();
    const abort = new AbortController();
    const waiting = slots.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    first();
    expect(slots.inUse).toBe(0);
    expect(slots.queued).toBe(0);
  });
});

describe('SharedBuild', () => {
  it('keeps building while any caller waits, and stops once the last one cancels', async () => {
    let buildSignal!: AbortSignal;
    let finish!: (v: string) => void;
    const build = new SharedBuild<string>((signal) => ((buildSignal = signal), new Promise((r) => (finish = r))));
    const a = new AbortController();
    const b = new AbortController();
    const first = build.join(a.signal);
    const second = build.join(b.signal);
    a.abort();
    await expect(first).rejects.toThrow(/cancelled/);
    expect(buildSignal.aborted).toBe(false);
    finish('layer');
    await expect(second).resolves.toBe('layer');

    const lonely = new SharedBuild<string>((signal) => ((buildSignal = signal), new Promise(() => {})));
    const c = new AbortController();
    const only = lonely.join(c.signal);
    c.abort();
    await expect(only).rejects.toThrow(/cancelled/);
    expect(buildSignal.aborted).toBe(true);
    expect(lonely.abandoned).toBe(true);
  });
});

/** A tar archive from entries (header fields as the helper's tar would write them), ended by two zero blocks. */
function tarOf(entries: { path: string; type: 'File' | 'Directory' | 'SymbolicLink'; mode: number; body?: string; linkpath?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const header = new Header({ path: e.path, type: e.type, mode: e.mode, size: e.type === 'File' ? body.length : 0, uid: 65534, gid: 65534, mtime: new Date(0), ...(e.linkpath ? { linkpath: e.linkpath } : {}) });
    const block = Buffer.alloc(512);
    header.encode(block);
    blocks.push(block);
    if (e.type === 'File') blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

describe('unpacking a layer', () => {
  it('owns every file as the host user with masked modes, keeps no setuid bit and no link', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-extract-'));
    let stopped = false;
    const extraction = extractLayer(dir, 1024 * 1024, () => (stopped = true));
    extraction.write(tarOf([
      { path: 'pkg', type: 'Directory', mode: 0o7777 },
      { path: 'pkg/mod.py', type: 'File', mode: 0o6777, body: 'X = 1\n' },
      { path: 'pkg/data.txt', type: 'File', mode: 0o666, body: 'data' },
      { path: 'pkg/link', type: 'SymbolicLink', mode: 0o777, linkpath: '/etc/passwd' },
    ]));
    await extraction.finish();
    expect(stopped).toBe(false);
    expect(readdirSync(path.join(dir, 'pkg')).sort()).toEqual(['data.txt', 'mod.py']);
    const uid = process.getuid!();
    for (const [file, mode] of [['pkg', 0o755], ['pkg/mod.py', 0o755], ['pkg/data.txt', 0o644]] as const) {
      const st = statSync(path.join(dir, file));
      expect({ file, mode: st.mode & 0o7777, uid: st.uid }).toEqual({ file, mode, uid });
    }
    expect(maskedMode('File', 0o4755)).toBe(0o755);
    expect(maskedMode('File', undefined)).toBe(0o644);
  });

  it('stops at its byte cap with a clear error and tells the caller to stop the helper', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-extract-'));
    let stopped = false;
    const extraction = extractLayer(dir, 1000, () => (stopped = true));
    extraction.write(tarOf([
      { path: 'a.py', type: 'File', mode: 0o644, body: 'a'.repeat(600) },
      { path: 'b.py', type: 'File', mode: 0o644, body: 'b'.repeat(600) },
    ]));
    await expect(extraction.finish()).rejects.toThrow('The package cache is full: this set needs more than 0.0 MB unpacked and packageCacheMB allows 0.0 MB; nothing was kept.');
    expect(stopped).toBe(true);
    expect(extraction.overCap).toBe(true);
  });
});

describe('the helper\'s lifetime and the run\'s own layer', () => {
  it('puts the lifetime on the helper\'s command line and in the runtime\'s --timeout', () => {
    const config = testableConfig();
    const base = { name: 'sandbar-pkg-resolve-abc', image: config.image, limits: config.limits, user: '65534', labels: {}, lifetime: { maxLifetimeSec: 600 }, isolation: 'runc' as const, ulimits: null, env: {} };
    const spec = pipSpec(base, 600);
    expect(spec.command.slice(0, 2)).toEqual(['python3', '-c']);
    expect(spec.command[3]).toBe('600');
    const args = argsFor('podman', spec);
    expect(args[args.indexOf('--timeout') + 1]).toBe('600');
    expect(() => pipSpec(base, 0)).toThrow(/not a helper lifetime/);
  });

  it('gives a run with packages a spec that mounts its own layer, and the pool none', () => {
    const config = { ...testableConfig(), packageLayers: '/home/u/.sandbar/packages/layers' };
    const pooled = containerSpecOf(config);
    expect(pooled.packageLayer).toBeUndefined();
    const key = 'a'.repeat(32);
    expect(packageSpecOf(pooled, config.packageLayers, key)?.packageLayer).toEqual({ source: `/home/u/.sandbar/packages/layers/${key}`, key });
    expect(packageSpecOf(pooled, config.packageLayers, null)).toBeUndefined();
    expect(packageSpecOf(pooled, undefined, key)).toBeUndefined();
    expect(() => packageSpecOf(pooled, config.packageLayers, '../x')).toThrow(/not a layer key/);
  });
});
