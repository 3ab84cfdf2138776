// Warm imports through real containers: pooled sandboxes import the preloads before code arrives, and
// Matplotlib's font list is built once per image, kept owner-only on the host, and never rebuilt in a sandbox.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { sandbox, startEngine, waitFor } from '../helpers.js';

/** Was a font list in Matplotlib's cache before the import, and did the import (re)write it? */
const FONTS = `
import glob, json, os
lists = lambda: {p: os.stat(p).st_mtime_ns for p in glob.glob(os.path.expanduser('~/.cache/matplotlib/fontlist-*.json'))}
before = lists()
import matplotlib.pyplot
print(json.dumps({'given': bool(before), 'rebuilt': lists() != before}))
`;
/** What the code sees before it imports anything itself. */
const LOADED = 'import sys, json\nprint(json.dumps([m in sys.modules for m in ("numpy", "pandas", "matplotlib.pyplot")]))';

/** A container ready and done importing (it says `ready` first and imports while it waits). The pool may
 * have grown by its burst allowance when a run found nothing ready. */
const poolReady = (engine: Engine) => engine.snapshot().pool.ready >= 1 && !engine.snapshot().pool.preloading;

describe.skipIf(!sandbox.available)('warm imports', () => {
  const engines: Engine[] = [];
  const dirs: string[] = [];
  const track = (e: Engine) => (engines.push(e), e);
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-fonts-'));
    dirs.push(dir);
    return path.join(dir, 'image-cache');
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('preload: null preloads the default modules the runs import: numpy, pandas and matplotlib.pyplot are loaded before the code', async () => {
    const engine = track(await startEngine({ poolSize: 1, preload: null }, { fontCacheDir: tempDir() }));
    expect(await waitFor(() => poolReady(engine), 90_000)).toBe(true);
    // Nothing is preloaded before any run has shown a use for it: a print(1) workload pays nothing.
    const first = await engine.submit({ code: LOADED }).result;
    expect(first.stdout).toBe('[false, false, false]\n');
    const user = await engine.submit({ code: 'import numpy\nfrom matplotlib import pyplot\nimport pandas as pd' }).result;
    expect(user.exitReason, user.stderr).toBe('success');
    // The idle container (made for the old plan) was replaced; the new one imports what the runs use.
    const ok = await waitFor(() => poolReady(engine), 90_000);
    expect(ok, JSON.stringify(engine.snapshot().pool)).toBe(true);
    const r = await engine.submit({ code: `${LOADED}\nimport matplotlib.pyplot as plt\nplt.plot([1, 2]); plt.show()` }).result;
    expect(r.exitReason, r.stderr).toBe('success');
    expect(r.stdout).toBe('[true, true, true]\n');
    // The preloaded pyplot still uses Sandbar's backend, and the warm-up figure left nothing behind.
    expect(r.artifacts?.map((a) => a.name)).toEqual(['figure-1.png']);
    expect(engine.snapshot().pool.lastError).toBeNull();
  });

  it('an explicit list is preloaded from the start', async () => {
    const engine = track(await startEngine({ poolSize: 1, preload: ['numpy', 'pandas', 'matplotlib.pyplot'] }, { fontCacheDir: tempDir() }));
    expect(await waitFor(() => poolReady(engine), 90_000)).toBe(true);
    const r = await engine.submit({ code: `${LOADED}\nimport matplotlib.pyplot as plt\nprint(plt.get_fignums())` }).result;
    expect(r.stdout).toBe('[true, true, true]\n[]\n');
  });

  it('imports only what the setting lists, and says in the pool status when a listed module does not import', async () => {
    const engine = track(await startEngine({ poolSize: 1, preload: ['json', 'no_such_module_here'] }, { fontCacheDir: tempDir() }));
    expect(await waitFor(() => poolReady(engine), 90_000)).toBe(true);
    expect(engine.snapshot().pool.lastError).toMatch(/could not import no_such_module_here \(ModuleNotFoundError: No module named 'no_such_module_here'\)/);
    const r = await engine.submit({ code: LOADED }).result;
    expect(r.stdout).toBe('[false, false, false]\n');
  });

  it('a run that arrives while the preloads are being imported starts after the current module, not after all', async () => {
    const engine = track(await startEngine({ poolSize: 1, preload: ['numpy', 'pandas', 'matplotlib.pyplot'] }, { fontCacheDir: tempDir() }));
    expect(await waitFor(() => engine.snapshot().pool.ready === 1, 90_000)).toBe(true);
    // Taken at once: whatever was imported so far is there, the rest was skipped, and the code runs.
    const r = await engine.submit({ code: 'import sys\nprint("matplotlib.pyplot" in sys.modules)\nimport matplotlib.pyplot as plt\nprint(plt.get_fignums())' }).result;
    expect(r.exitReason, r.stderr).toBe('success');
    expect(r.stdout).toMatch(/^(True|False)\n\[\]\n$/);
  });

  it('preload: [] imports nothing ahead', async () => {
    const engine = track(await startEngine({ poolSize: 1, preload: [] }, { fontCacheDir: tempDir() }));
    expect(await waitFor(() => poolReady(engine), 90_000)).toBe(true);
    const r = await engine.submit({ code: LOADED }).result;
    expect(r.stdout).toBe('[false, false, false]\n');
  });

  it('builds the font list once per image, keeps it owner-only on the host, and later sandboxes (cold ones too) use it', async () => {
    // Without a list, a sandbox builds its own: what this test looks for is real.
    const bare = track(await startEngine({ poolSize: 0 }, { fontCacheDir: tempDir() }));
    const before = await bare.submit({ code: FONTS }).result;
    expect(before.stdout).toBe('{"given": false, "rebuilt": true}\n');

    const dir = tempDir();
    const first = track(await startEngine({ poolSize: 1, preload: [] }, { fontCacheDir: dir }));
    expect(await waitFor(() => poolReady(first), 90_000)).toBe(true);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    const built = statSync(path.join(dir, files[0]!)).mtimeMs;
    const warm = await first.submit({ code: FONTS }).result;
    expect(warm.exitReason, warm.stderr).toBe('success');
    expect(warm.stdout).toBe('{"given": true, "rebuilt": false}\n');
    await first.dispose();

    // Another engine (a restart) without a pool: cold starts read the kept list and build nothing. The first
    // cold start learns the image's key without waiting for it, so the next one is the one that must use it.
    const second = track(await startEngine({ poolSize: 0 }, { fontCacheDir: dir }));
    await second.submit({ code: 'pass' }).result;
    const cold = await second.submit({ code: FONTS }).result;
    expect(cold.exitReason, cold.stderr).toBe('success');
    expect(cold.stdout).toBe('{"given": true, "rebuilt": false}\n');
    expect(statSync(path.join(dir, files[0]!)).mtimeMs).toBe(built);
    expect(readdirSync(dir)).toEqual(files);
  });
});
