// Layers are whole or absent; a killed build leaves nothing a sandbox could mount; LRU keeps the cap.
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYER_MANIFEST, layerKey, LayerStore } from '../../../electron/packages/layer-store.js';

const root = () => path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-layers-')), 'packages');
const sha = (c: string) => c.repeat(64);

async function build(store: LayerStore, key: string, bytes: number, wheels = [{ filename: 'a.whl', sha256: sha('a') }]) {
  const staged = await store.stage();
  writeFileSync(path.join(staged.dir, 'mod.py'), 'x'.repeat(bytes));
  return staged.commit({ key, wheels, python: 'cpython3.11', platform: 'linux-x86_64' });
}

describe('LayerStore', () => {
  it('keys a set by its wheels (order-free), Python and platform', () => {
    const a = layerKey([{ sha256: sha('1') }, { sha256: sha('2') }], 'cpython3.11', 'linux-x86_64');
    expect(layerKey([{ sha256: sha('2') }, { sha256: sha('1') }], 'cpython3.11', 'linux-x86_64')).toBe(a);
    expect(layerKey([{ sha256: sha('1') }, { sha256: sha('2') }], 'cpython3.12', 'linux-x86_64')).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });

  it('commits a layer whole, world-readable, with its manifest and size', async () => {
    const store = new LayerStore(root(), () => 1e9);
    await store.init();
    const manifest = await build(store, 'a'.repeat(32), 1000);
    expect(await store.has('a'.repeat(32))).toBe(true);
    expect(manifest.bytes).toBe(1000);
    expect(statSync(store.layersDir).mode & 0o777).toBe(0o755);
    expect(existsSync(path.join(store.layerPath('a'.repeat(32)), LAYER_MANIFEST))).toBe(true);
  });

  it('leaves no layer when a build is killed before it commits: the next start clears staging', async () => {
    const dir = root();
    const store = new LayerStore(dir, () => 1e9);
    await store.init();
    const staged = await store.stage();
    writeFileSync(path.join(staged.dir, 'half.py'), 'partial');
    // The process dies here; a new one starts.
    const next = new LayerStore(dir, () => 1e9);
    await next.init();
    expect(readdirSync(path.join(dir, 'staging'))).toEqual([]);
    expect(readdirSync(next.layersDir)).toEqual([]);
  });

  it('rejects keys that are not content addresses', () => {
    const store = new LayerStore(root(), () => 1e9);
    expect(() => store.layerPath('../../etc')).toThrow(/not a layer key/);
    expect(() => store.wheelPath('x')).toThrow(/not a sha256/);
  });

  it('collects least recently used layers first, never the one just built, and their unused wheels', async () => {
    const store = new LayerStore(root(), () => 2500);
    await store.init();
    const [k1, k2, k3] = ['1'.repeat(32), '2'.repeat(32), '3'.repeat(32)];
    await store.putWheel(sha('a'), Buffer.alloc(10));
    await build(store, k1, 1000, [{ filename: 'a.whl', sha256: sha('a') }]);
    await build(store, k2, 1000, [{ filename: 'b.whl', sha256: sha('b') }]);
    await build(store, k3, 1000, [{ filename: 'c.whl', sha256: sha('c') }]);
    // k2 was used long ago, k1 recently: k2 goes first.
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(store.layerPath(k2), LAYER_MANIFEST), old, old);
    const removed = await store.collect([k3]);
    expect(removed).toEqual([k2]);
    expect(await store.has(k1)).toBe(true);
    expect(await store.has(k3)).toBe(true);
    expect((await store.usage()).bytes).toBeLessThanOrEqual(2500 + 10);
  });
});
