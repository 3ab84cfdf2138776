// The pure parts of Kubernetes warm pods: which pods a claim looks at, in which order, and what it writes.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { claimLabels, claimOrder, hashLabel, warmSelector } from '../../../../electron/sandbox/kubernetes/kubernetes-warm-pods.js';

const owner = { instanceId: 'me0000000000', pid: 42, host: 'my host' };
const pod = (name: string, instance: string, created: string, phase = 'Running', runningContainer = true): V1Pod => ({
  metadata: { name, creationTimestamp: new Date(created), labels: { 'sandbar.instance': instance } },
  status: { phase, containerStatuses: [{ name: 'sandbox', image: 'i', imageID: '', ready: true, restartCount: 0, state: runningContainer ? { running: {} } : { waiting: { reason: 'ContainerCreating' } } }] },
});

describe('warm pod claims', () => {
  it('selects unclaimed warm pods of one spec from anyone, or of one owner', () => {
    expect(warmSelector({ specHash: 'abc' })).toBe('app.kubernetes.io/managed-by=sandbar,sandbar.warm=true,sandbar.spec=abc');
    expect(warmSelector({ instanceId: 'me0000000000' })).toBe('app.kubernetes.io/managed-by=sandbar,sandbar.warm=true,sandbar.instance=me0000000000');
  });

  it('makes the claimer the owner, with legal label values, and takes the pod out of the warm selector', () => {
    expect(claimLabels(owner, 'run-1')).toEqual({ 'sandbar.warm': 'claimed', 'sandbar.instance': 'me0000000000', 'sandbar.pid': '42', 'sandbar.host': 'my-host', 'sandbar.execution': 'run-1' });
    expect(claimLabels(owner)).not.toHaveProperty('sandbar.execution');
  });

  it('tries running pods only, its own first, then the oldest', () => {
    const order = claimOrder([
      pod('theirs-old', 'other', '2026-01-01T00:00:00Z'),
      pod('mine-new', 'me0000000000', '2026-01-03T00:00:00Z'),
      pod('pending', 'me0000000000', '2026-01-01T00:00:00Z', 'Pending', false),
      pod('mine-old', 'me0000000000', '2026-01-02T00:00:00Z'),
      pod('creating', 'other', '2026-01-01T00:00:00Z', 'Running', false),
    ], owner);
    expect(order.map((p) => p.metadata!.name)).toEqual(['mine-old', 'mine-new', 'theirs-old']);
  });

  it('hashes whatever shapes the manifest into a 16-hex label value that changes with it', () => {
    expect(hashLabel(['a', 1])).toMatch(/^[0-9a-f]{16}$/);
    expect(hashLabel(['a', 1])).toBe(hashLabel(['a', 1]));
    expect(hashLabel(['a', 1])).not.toBe(hashLabel(['a', 2]));
  });
});
