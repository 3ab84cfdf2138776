// How the agent reads the sandbox's memory share for dropping checkpoints (agent_checkpoints.py): cgroup v2's
// files, else cgroup v1's (a host on v1 gave no share at all before, so only the OOM killer dropped
// checkpoints, largest first). The real function on the host's python3, over files in a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../../electron/sandbox/agent/agent_checkpoints.py', import.meta.url));

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sandbar-cgroup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `_memory_share()` with the v2 and v1 files at `dir` (those given are written, the others are missing). */
function share(files: { current?: string; max?: string; usage?: string; limit?: string }): number {
  const at = (name: string) => path.join(dir, name);
  for (const [name, text] of Object.entries(files)) writeFileSync(at(name), text);
  // The file is a part of the joined agent: the modules the earlier parts import come first.
  const program = [
    'import collections, json, os, signal, threading, time, queue',
    readFileSync(SOURCE, 'utf8'),
    `_CGROUP_MEMORY = ((${JSON.stringify(at('current'))}, ${JSON.stringify(at('max'))}), (${JSON.stringify(at('usage'))}, ${JSON.stringify(at('limit'))}))`,
    'print(_memory_share())',
  ].join('\n');
  return Number(execFileSync('python3', ['-c', program], { encoding: 'utf8' }).trim());
}

describe("the agent's memory share", () => {
  it('reads cgroup v2 (memory.current over memory.max), and no limit as 0', () => {
    expect(share({ current: '268435456\n', max: '536870912\n' })).toBe(0.5);
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(path.join(tmpdir(), 'sandbar-cgroup-'));
    expect(share({ current: '268435456\n', max: 'max\n' })).toBe(0);
  });

  it('falls back to cgroup v1 (usage_in_bytes over limit_in_bytes), where no limit is a huge number', () => {
    expect(share({ usage: '402653184\n', limit: '536870912\n' })).toBe(0.75);
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(path.join(tmpdir(), 'sandbar-cgroup-'));
    expect(share({ usage: '402653184\n', limit: '9223372036854771712\n' })).toBe(0);
  });

  it('prefers v2 when both are there, and says 0 when neither is readable', () => {
    expect(share({ current: '134217728', max: '536870912', usage: '402653184', limit: '536870912' })).toBe(0.25);
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(path.join(tmpdir(), 'sandbar-cgroup-'));
    expect(share({})).toBe(0);
  });
});
