// The test projects: unit (no containers), integration (real containers, one file at a time, per runtime) and e2e (the panel in Chromium).
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { parseTestRuntimes } from './integration/runtimes.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const [mainRuntime, ...otherRuntimes] = parseTestRuntimes(process.env.SANDBAR_TEST_RUNTIMES);

const integration = {
  // Real containers on a 2-core machine: one file at a time keeps timings honest.
  fileParallelism: false,
  testTimeout: 120_000,
  hookTimeout: 120_000,
  globalSetup: ['test/integration/global-setup.ts'],
};

export default defineConfig({
  root,
  test: {
    // CI also writes a JSON report so .ci/run can print the totals in a form CI reads.
    reporters: process.env.CI ? ['default', ['json', { outputFile: process.env.SANDBAR_TEST_REPORT ?? 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          testTimeout: 20_000,
          // GitHub's workflow parser imports its schema as JSON without an import attribute, which Node 20
          // refuses: let Vite load it instead.
          server: { deps: { inline: ['@actions/workflow-parser'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          ...integration,
          ...(mainRuntime ? { env: mainRuntime.env } : {}),
        },
      },
      // The container suites again on each other listed runtime, one runtime after another.
      ...otherRuntimes.map((runtime, i) => ({
        extends: true as const,
        test: { name: `integration-${runtime.id}`, include: runtime.include, ...integration, env: runtime.env, sequence: { groupOrder: i + 1 } },
      })),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // One browser and one server at a time: the machine has two cores.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          globalSetup: ['test/e2e/e2e-setup.ts'],
        },
      },
    ],
  },
});
