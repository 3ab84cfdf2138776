// SANDBAR_TEST_RUNTIMES: which runtimes the container suites run on (one vitest project each).
import { describe, expect, it } from 'vitest';
import { parseTestRuntimes } from '../../integration/runtimes.js';

describe('parseTestRuntimes', () => {
  it('is empty when unset (the runtime the locator finds is used)', () => {
    expect(parseTestRuntimes(undefined)).toEqual([]);
    expect(parseTestRuntimes(' , ')).toEqual([]);
  });

  it('maps each name to the env its project runs with; runsc is Podman with gVisor', () => {
    const [podman, docker, runsc] = parseTestRuntimes('podman, docker,runsc');
    expect(podman).toMatchObject({ id: 'podman', env: { SANDBAR_RUNTIME: 'podman' } });
    expect(docker).toMatchObject({ id: 'docker', env: { SANDBAR_RUNTIME: 'docker' } });
    expect(runsc).toMatchObject({ id: 'runsc', env: { SANDBAR_RUNTIME: 'podman', SANDBAR_OCI_RUNTIME: 'runsc' } });
    expect(runsc!.include).toContain('test/integration/sandbox/hostile-code.test.ts');
    expect(runsc!.include).toContain('test/integration/sandbox/runtime-matrix.test.ts');
    // Checkpoints depend on the runtime (the agent forks in the sandbox): every runtime runs their suite.
    for (const runtime of [docker, runsc]) expect(runtime!.include).toContain('test/integration/mcp/session-checkpoints.test.ts');
  });

  it('refuses an unknown name instead of silently testing less', () => {
    expect(() => parseTestRuntimes('podman,nerdctl')).toThrow(/unknown runtime nerdctl/);
  });
});
