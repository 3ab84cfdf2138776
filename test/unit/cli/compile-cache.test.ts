// The `sandbar` entry turns V8's compile cache on (Node ≥ 22.1) inside SANDBAR_HOME only: never in a
// folder it would have to create, never anywhere shared; without the API, nothing happens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPILE_CACHE_DIR, enableCompileCache } from '../../../electron/compile-cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function recorder() {
  const asked: string[] = [];
  const enable = (directory: string) => {
    asked.push(directory);
    return { status: 1, directory };
  };
  return { asked, enable };
}

describe('the compile cache', () => {
  it('goes into the existing home, and is what the entry reports', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-ccache-'));
    dirs.push(home);
    const { asked, enable } = recorder();
    expect(enableCompileCache({ SANDBAR_HOME: home }, enable)).toBe(path.join(home, COMPILE_CACHE_DIR));
    expect(asked).toEqual([path.join(home, COMPILE_CACHE_DIR)]);
  });

  it('is not turned on when the home does not exist yet (the entry creates no folder)', () => {
    const { asked, enable } = recorder();
    expect(enableCompileCache({ SANDBAR_HOME: path.join(tmpdir(), 'sandbar-ccache-missing-home', 'nope') }, enable)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('is skipped without the API (Node before 22.1) and survives an API that throws', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-ccache-'));
    dirs.push(home);
    expect(enableCompileCache({ SANDBAR_HOME: home }, undefined)).toBeNull();
    expect(enableCompileCache({ SANDBAR_HOME: home }, () => { throw new Error('EACCES'); })).toBeNull();
  });
});
