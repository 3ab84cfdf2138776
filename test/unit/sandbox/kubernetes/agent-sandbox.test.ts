// The pure parts of the agent-sandbox path: when discovery counts as "the CRDs exist", and what a claim asks.
import type { V1APIGroupList } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { agentSandboxVersion, sandboxClaim, sandboxTemplate } from '../../../../electron/sandbox/kubernetes/agent-sandbox.js';

const group = (name: string, versions: string[], preferred?: string) => ({
  name,
  versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
  ...(preferred ? { preferredVersion: { groupVersion: `${name}/${preferred}`, version: preferred } } : {}),
});
const groups = (...g: ReturnType<typeof group>[]): V1APIGroupList => ({ groups: g });
const ALL = ['sandboxtemplates', 'sandboxwarmpools', 'sandboxclaims'];

describe('agent-sandbox discovery', () => {
  it('needs both groups and every extension resource Sandbar uses; reads Sandboxes at the preferred version', () => {
    const both = groups(group('extensions.agents.x-k8s.io', ['v1alpha1']), group('agents.x-k8s.io', ['v1beta1', 'v1alpha1'], 'v1beta1'));
    expect(agentSandboxVersion(both, ALL)).toBe('v1beta1');
    expect(agentSandboxVersion(groups(group('extensions.agents.x-k8s.io', ['v1alpha1']), group('agents.x-k8s.io', ['v1alpha1'])), ALL)).toBe('v1alpha1');
    expect(agentSandboxVersion(both, ['sandboxtemplates', 'sandboxclaims'])).toBeNull();
    expect(agentSandboxVersion(groups(group('agents.x-k8s.io', ['v1alpha1'])), ALL)).toBeNull();
    expect(agentSandboxVersion(groups(group('extensions.agents.x-k8s.io', ['v1beta9']), group('agents.x-k8s.io', ['v1alpha1'])), ALL)).toBeNull();
    expect(agentSandboxVersion(groups(), ALL)).toBeNull();
  });

  it('claims with a shutdown backstop, and labels the pod with its claimer, run and claim (never as warm)', () => {
    const at = new Date('2026-12-01T12:00:00Z');
    const claim = sandboxClaim('sandbar-abc', 'ns', 'sandbar-0123', { instanceId: 'inst', pid: 7, host: 'h' }, 'run-1', at) as { spec: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(claim.spec.lifecycle).toEqual({ shutdownTime: '2026-12-01T12:00:00.000Z', shutdownPolicy: 'Delete' });
    expect(claim.spec.sandboxTemplateRef).toEqual({ name: 'sandbar-0123' });
    expect(claim.spec.additionalPodMetadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': 'inst', 'sandbar.pid': '7', 'sandbar.host': 'h', 'sandbar.execution': 'run-1', 'sandbar.claim': 'sandbar-abc',
    });
  });

  it('makes the template from the pod\'s labels and spec only, and leaves networking to Sandbar\'s own policy', () => {
    const t = sandboxTemplate('sandbar-0123', 'ns', { metadata: { name: 'x', labels: { a: 'b' } }, spec: { containers: [] } }) as { spec: Record<string, unknown> };
    expect(t.spec).toEqual({ podTemplate: { metadata: { labels: { a: 'b' } }, spec: { containers: [] } }, networkPolicyManagement: 'Unmanaged' });
  });
});
