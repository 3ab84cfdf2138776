// Preload plans and the per-image font list cache (memory, owner-only disk, one build at a time).
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { specKey } from '../../../electron/sandbox/backend.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { FontListCache, parseFontListOutput, PRELOAD_USAGE_WINDOW, preloadPlan, preloadProblem, PreloadUsage, type FontList } from '../../../electron/sandbox/warm-imports.js';

const LIST: FontList = { name: 'fontlist-v330.json', data: '{"_version": 330, "ttflist": []}' };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-fl-'));
  dirs.push(dir);
  return path.join(dir, 'image-cache');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('preloadPlan', () => {
  it('null means the default modules the runs use, each optional; a list is required as given; [] is nothing', () => {
    expect(preloadPlan(null)).toEqual({ modules: ['numpy', 'pandas', 'matplotlib.pyplot'], optional: true });
    expect(preloadPlan(undefined, ['pandas', 'numpy'])).toEqual({ modules: ['numpy', 'pandas'], optional: true });
    expect(preloadPlan(null, [])).toBeUndefined();
    expect(preloadPlan(['scipy'], [])).toEqual({ modules: ['scipy'], optional: false });
    expect(preloadPlan([])).toBeUndefined();
  });

  it('drains the pool when it changes (it is part of the spec key)', () => {
    const spec = { image: 'img', limits: DEFAULT_LIMITS };
    expect(specKey(spec)).not.toBe(specKey({ ...spec, preload: preloadPlan(['scipy']) }));
    expect(specKey({ ...spec, preload: preloadPlan(null, ['pandas']) })).not.toBe(specKey({ ...spec, preload: preloadPlan(null, ['numpy', 'pandas']) }));
    expect(specKey({ ...spec, preload: preloadPlan(['a']) })).toBe(specKey({ ...spec, preload: preloadPlan(['a']) }));
  });

  it('words a failed preload for the pool status', () => {
    expect(preloadProblem({ preload: undefined })).toBeNull();
    expect(preloadProblem({ preload: { type: 'preload', loaded: ['json'], failed: [], bytes: 40 } })).toBeNull();
    expect(preloadProblem({ preload: { type: 'preload', loaded: [], failed: [{ module: 'x', error: 'ModuleNotFoundError: no x' }], bytes: 90 } })).toBe(
      'Preload (setting "preload"): could not import x (ModuleNotFoundError: no x)',
    );
  });
});

describe('PreloadUsage', () => {
  it('follows what recent runs import, ignoring anything but the default modules', () => {
    const usage = new PreloadUsage(3);
    expect(usage.inUse()).toEqual([]);
    expect(usage.record(['os', 'json'])).toBe(false);
    expect(usage.record(['matplotlib.pyplot', 'pandas', 'scipy'])).toBe(true);
    expect(usage.inUse()).toEqual(['pandas', 'matplotlib.pyplot']);
    expect(usage.record(['pandas'])).toBe(false);
    expect(usage.record([])).toBe(false);
    // The pyplot run falls out of the window of 3: pyplot is no longer preloaded; pandas still is.
    expect(usage.record([])).toBe(true);
    expect(usage.inUse()).toEqual(['pandas']);
    expect(usage.record([])).toBe(true);
    expect(usage.inUse()).toEqual([]);
    expect(usage.record([])).toBe(false);
  });

  it(`looks at the last ${PRELOAD_USAGE_WINDOW} runs by default`, () => {
    const usage = new PreloadUsage();
    usage.record(['numpy']);
    for (let i = 0; i < PRELOAD_USAGE_WINDOW - 1; i++) usage.record([]);
    expect(usage.inUse()).toEqual(['numpy']);
    usage.record([]);
    expect(usage.inUse()).toEqual([]);
  });
});

describe('parseFontListOutput', () => {
  it('reads the snippet line, null for an image without Matplotlib', () => {
    expect(parseFontListOutput(`noise\n${JSON.stringify({ fontList: LIST })}\n`)).toEqual(LIST);
    expect(parseFontListOutput('{"fontList": null}\n')).toBeNull();
  });

  it('refuses anything else: a path in the name, a non-JSON list, garbage', () => {
    expect(() => parseFontListOutput(JSON.stringify({ fontList: { name: '../../x.json', data: '{}' } }))).toThrow(/something else/);
    expect(() => parseFontListOutput(JSON.stringify({ fontList: { name: 'fontlist-v1.json', data: 'nope' } }))).toThrow();
    expect(() => parseFontListOutput('not json')).toThrow();
  });
});

describe('FontListCache', () => {
  it('builds once however many ask at the same time, then keeps it on disk owner-only for the next process', async () => {
    const dir = tempDir();
    const cache = new FontListCache(dir);
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 20));
      return LIST;
    };
    expect(cache.peek('podman:sha256:abc')).toBeUndefined();
    const got = await Promise.all([cache.get('podman:sha256:abc', build), cache.get('podman:sha256:abc', build)]);
    expect(got).toEqual([LIST, LIST]);
    expect(builds).toBe(1);
    const [file] = readdirSync(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);

    const restarted = new FontListCache(dir);
    expect(restarted.peek('podman:sha256:abc')).toEqual(LIST);
    expect(restarted.peek('podman:sha256:other')).toBeUndefined();
    expect(await restarted.get('podman:sha256:abc', build)).toEqual(LIST);
    expect(builds).toBe(1);
  });

  it('remembers "no Matplotlib" too, and a failed build as none for this process only', async () => {
    const dir = tempDir();
    const cache = new FontListCache(dir);
    expect(await cache.get('a', async () => null)).toBeNull();
    expect(new FontListCache(dir).peek('a')).toBeNull();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('image missing');
    };
    expect(await cache.get('b', failing)).toBeNull();
    expect(await cache.get('b', failing)).toBeNull();
    expect(calls).toBe(1);
    expect(cache.lastError).toMatch(/could not be built.*image missing/);
    expect(new FontListCache(dir).peek('b')).toBeUndefined();
  });

  it('treats a damaged or foreign file as unknown', () => {
    const dir = tempDir();
    const cache = new FontListCache(dir);
    return cache.get('k', async () => LIST).then(() => {
      const [file] = readdirSync(dir);
      writeFileSync(path.join(dir, file!), '{"key": "k", "fontList": {"name": "evil/../x", "data": "{}"}}');
      expect(new FontListCache(dir).peek('k')).toBeUndefined();
      writeFileSync(path.join(dir, file!), 'garbage');
      expect(new FontListCache(dir).peek('k')).toBeUndefined();
    });
  });

  it('without a directory keeps lists in memory only', async () => {
    const cache = new FontListCache();
    expect(await cache.get('k', async () => LIST)).toEqual(LIST);
    expect(cache.peek('k')).toEqual(LIST);
  });
});
