// Package layers on the host: `<root>/layers/<key>/` holds one installed, resolved set of wheels, made
// whole or not at all (built in a staging directory, then renamed), mounted read-only into sandboxes.
// Verified wheels live in `<root>/wheels/<sha256>.whl`. Both are collected least-recently-used first once
// the cache passes its size cap.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LAYER_MANIFEST = '.sandbar-layer.json';

export interface LayerManifest {
  key: string;
  /** The wheels installed, by file name and sha256. */
  wheels: { filename: string; sha256: string }[];
  python: string;
  platform: string;
  bytes: number;
  createdAt: number;
}

export interface CacheUsage {
  layers: number;
  wheels: number;
  bytes: number;
  capBytes: number;
}

/** The content address of a resolved set: its wheels (order-free), the Python tag and the platform. */
export function layerKey(wheels: readonly { sha256: string }[], python: string, platform: string): string {
  const hash = createHash('sha256');
  for (const sha of [...new Set(wheels.map((w) => w.sha256))].sort()) hash.update(`${sha}\n`);
  hash.update(`python=${python}\nplatform=${platform}\n`);
  return hash.digest('hex').slice(0, 32);
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export class LayerStore {
  readonly layersDir: string;
  readonly wheelsDir: string;
  private readonly stagingDir: string;

  constructor(
    readonly root: string,
    private readonly capBytes: () => number,
  ) {
    this.layersDir = path.join(root, 'layers');
    this.wheelsDir = path.join(root, 'wheels');
    this.stagingDir = path.join(root, 'staging');
  }

  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    // Sandboxes read layers through a read-only mount as an unprivileged user: the tree is world-readable,
    // and the private home above it still keeps other host users out.
    await mkdir(this.layersDir, { recursive: true, mode: 0o755 });
    await chmod(this.layersDir, 0o755);
    await mkdir(this.wheelsDir, { recursive: true, mode: 0o700 });
    // Staging left by a killed install is never a layer: it goes.
    await rm(this.stagingDir, { recursive: true, force: true });
    await mkdir(this.stagingDir, { recursive: true, mode: 0o700 });
  }

  layerPath(key: string): string {
    if (!/^[0-9a-f]{32}$/.test(key)) throw new Error(`not a layer key: ${key}`);
    return path.join(this.layersDir, key);
  }

  async has(key: string): Promise<boolean> {
    return existsSync(path.join(this.layerPath(key), LAYER_MANIFEST));
  }

  /** Marks a layer used now (the LRU clock). */
  async touch(key: string): Promise<void> {
    const now = new Date();
    await utimes(path.join(this.layerPath(key), LAYER_MANIFEST), now, now).catch(() => {});
  }

  wheelPath(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.wheelsDir, `${sha256}.whl`);
  }

  async getWheel(sha256: string): Promise<Buffer | null> {
    return readFile(this.wheelPath(sha256)).catch(() => null);
  }

  async putWheel(sha256: string, data: Buffer): Promise<void> {
    const target = this.wheelPath(sha256);
    const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, data, { mode: 0o644 });
    await rename(temp, target);
  }

  /** A fresh staging directory for one build; `commit` makes it the layer, `discard` removes it. */
  async stage(): Promise<{ dir: string; commit(manifest: Omit<LayerManifest, 'bytes' | 'createdAt'>): Promise<LayerManifest>; discard(): Promise<void> }> {
    const dir = path.join(this.stagingDir, randomBytes(8).toString('hex'));
    await mkdir(dir, { mode: 0o755 });
    return {
      dir,
      commit: async (partial) => {
        const manifest: LayerManifest = { ...partial, bytes: await treeBytes(dir), createdAt: Date.now() };
        await writeFile(path.join(dir, LAYER_MANIFEST), JSON.stringify(manifest, null, 2), { mode: 0o644 });
        try {
          await rename(dir, this.layerPath(manifest.key));
        } catch (err) {
          // Another build of the same set won the race: same content, keep theirs.
          if (!(await this.has(manifest.key))) throw err;
          await rm(dir, { recursive: true, force: true });
        }
        return manifest;
      },
      discard: () => rm(dir, { recursive: true, force: true }),
    };
  }

  async usage(): Promise<CacheUsage> {
    const layers = await this.layers();
    const wheels = await this.wheels();
    return {
      layers: layers.length,
      wheels: wheels.length,
      bytes: layers.reduce((n, l) => n + l.bytes, 0) + wheels.reduce((n, w) => n + w.bytes, 0),
      capBytes: this.capBytes(),
    };
  }

  /**
   * Removes least recently used layers (never `keep`) until the cache fits its cap, then wheels no
   * remaining layer uses. Returns the keys removed.
   */
  async collect(keep: readonly string[] = []): Promise<string[]> {
    const removed: string[] = [];
    let layers = await this.layers();
    let wheels = await this.wheels();
    const total = () => layers.reduce((n, l) => n + l.bytes, 0) + wheels.reduce((n, w) => n + w.bytes, 0);
    const inUse = () => new Set(layers.flatMap((l) => l.manifest.wheels.map((w) => w.sha256)));
    const dropUnusedWheels = async () => {
      const used = inUse();
      for (const w of wheels.filter((x) => !used.has(x.sha256))) await rm(w.file, { force: true });
      wheels = wheels.filter((x) => used.has(x.sha256));
    };
    if (total() <= this.capBytes()) return removed;
    await dropUnusedWheels();
    for (const layer of [...layers].sort((a, b) => a.usedAt - b.usedAt)) {
      if (total() <= this.capBytes()) break;
      if (keep.includes(layer.manifest.key)) continue;
      await rm(this.layerPath(layer.manifest.key), { recursive: true, force: true });
      layers = layers.filter((l) => l !== layer);
      removed.push(layer.manifest.key);
      await dropUnusedWheels();
    }
    return removed;
  }

  private async layers(): Promise<{ manifest: LayerManifest; bytes: number; usedAt: number }[]> {
    const out: { manifest: LayerManifest; bytes: number; usedAt: number }[] = [];
    for (const name of await readdir(this.layersDir).catch(() => [] as string[])) {
      const file = path.join(this.layersDir, name, LAYER_MANIFEST);
      try {
        const manifest = JSON.parse(await readFile(file, 'utf8')) as LayerManifest;
        out.push({ manifest, bytes: manifest.bytes, usedAt: (await stat(file)).mtimeMs });
      } catch {
        // Not a finished layer (no manifest): nothing mounts it; it is removed with the next collection.
        await rm(path.join(this.layersDir, name), { recursive: true, force: true });
      }
    }
    return out;
  }

  private async wheels(): Promise<{ sha256: string; file: string; bytes: number }[]> {
    const out: { sha256: string; file: string; bytes: number }[] = [];
    for (const name of await readdir(this.wheelsDir).catch(() => [] as string[])) {
      const m = /^([0-9a-f]{64})\.whl$/.exec(name);
      if (!m) continue;
      const file = path.join(this.wheelsDir, name);
      out.push({ sha256: m[1] ?? '', file, bytes: (await stat(file)).size });
    }
    return out;
  }
}
