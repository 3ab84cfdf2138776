// Every runtime and tier installed here, probed with the engine's spec (`sandbar doctor --all-runtimes`).
// In CI every runtime in SANDBAR_TEST_RUNTIMES must be among them.
import { describe, expect, it } from 'vitest';
import { newOwner } from '../../electron/sandbox/backend.js';
import { containerSpecOf } from '../../electron/sandbox/engine.js';
import { formatTiers, probeEveryTier } from '../../electron/health/runtime-tiers.js';
import { sandbox, testConfig } from './helpers.js';
import { parseTestRuntimes } from './runtimes.js';

describe.skipIf(!sandbox.available)('every runtime and isolation tier', () => {
  it('lists each limit per tier: runc tiers enforce all, gVisor has its two documented exceptions', async () => {
    const { ociRuntime: _o, ...config } = testConfig();
    const results = await probeEveryTier({ env: process.env, platform: process.platform, owner: newOwner(), spec: containerSpecOf({ ...config, ociRuntime: null }) });
    const key = (r: { runtime: string; isolation: string }) => (r.isolation === 'runsc' ? 'runsc' : r.runtime);
    const found = new Map(results.map((r) => [key(r), r]));
    for (const wanted of parseTestRuntimes(process.env.SANDBAR_TEST_RUNTIMES)) expect([...found.keys()], wanted.id).toContain(wanted.id);
    for (const r of results) {
      expect(r.capabilities, `${key(r)}: ${r.error}`).toBeDefined();
      const states = Object.fromEntries(Object.entries(r.capabilities!.limits).map(([k, l]) => [k, l.state]));
      if (r.isolation === 'runsc') expect(states).toEqual({ memory: 'enforced', pids: 'exception', network: 'enforced', readOnlyRoot: 'enforced', capabilities: 'enforced', seccomp: 'exception' });
      else expect(states).toEqual({ memory: 'enforced', pids: 'enforced', network: 'enforced', readOnlyRoot: 'enforced', capabilities: 'enforced', seccomp: 'enforced' });
    }
    const text = formatTiers(results);
    expect(text.split('\n')).toHaveLength(results.length);
    if (found.has('runsc')) expect(text).toMatch(/podman \+ gVisor.*: memory ✓, pids !, network ✓, readOnlyRoot ✓, capabilities ✓, seccomp !/);
  });
});
