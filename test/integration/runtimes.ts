// Which container runtimes the integration suite runs on: SANDBAR_TEST_RUNTIMES, a comma list of
// `podman`, `docker` and `runsc` (Podman with gVisor). The first is the main integration project; each
// other one gets its own project over the container suites and the checkpoint suite, run after it (never two
// at once on 2 cores).
// Unset: the runtime the locator finds, as before. In CI a listed runtime that is missing fails the run.

export interface TestRuntime {
  id: 'podman' | 'docker' | 'runsc';
  /** What the engine and the tests' own CLI calls see (the project's `env`). */
  env: Record<string, string>;
  /** The container suites; the runsc tier runs the probe and the hostile suite. */
  include: string[];
}

const CONTAINER_SUITES = ['test/integration/sandbox/**/*.test.ts'];
/** Checkpoints live in the sandbox (the agent forks), so whether they work depends on the runtime: each runs them. */
const CHECKPOINTS = 'test/integration/mcp/session-checkpoints.test.ts';
/** Egress rides the agent's channel, whose frames each runtime carries (and gVisor's netstack sees the listener): each runs it. */
const EGRESS = 'test/integration/security/egress-runs.test.ts';

export const TEST_RUNTIMES: Record<TestRuntime['id'], Omit<TestRuntime, 'id'>> = {
  podman: { env: { SANDBAR_RUNTIME: 'podman' }, include: CONTAINER_SUITES },
  docker: { env: { SANDBAR_RUNTIME: 'docker' }, include: [...CONTAINER_SUITES, CHECKPOINTS, EGRESS] },
  runsc: {
    env: { SANDBAR_RUNTIME: 'podman', SANDBAR_OCI_RUNTIME: 'runsc' },
    include: ['test/integration/sandbox/hostile-code.test.ts', 'test/integration/sandbox/runtime-matrix.test.ts', 'test/integration/sandbox/folders.test.ts', CHECKPOINTS, EGRESS],
  },
};

export function parseTestRuntimes(value: string | undefined): TestRuntime[] {
  const ids = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return ids.map((id) => {
    if (!(id in TEST_RUNTIMES)) throw new Error(`SANDBAR_TEST_RUNTIMES: unknown runtime ${id} (podman, docker or runsc)`);
    const known = id as TestRuntime['id'];
    return { id: known, ...TEST_RUNTIMES[known] };
  });
}
