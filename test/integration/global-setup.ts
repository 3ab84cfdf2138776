// Integration tests need a real container runtime and the local test image. Locally a missing one
// skips the suite with a message; in CI (CI=true) it is a failure, never a silent skip.
import type { TestProject } from 'vitest/node';
import { ContainerRuntime } from '../../electron/sandbox/container-runtime.js';
import { isStrictCi } from '../ci-mode.js';

export const TEST_IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: { available: boolean; image: string; reason: string };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  let reason = '';
  try {
    await runtime.resolve();
    if (!(await runtime.imageExists(TEST_IMAGE))) reason = `the test image ${TEST_IMAGE} is missing (build it with .ci/build-test-image.sh)`;
  } catch (err) {
    reason = `no working container runtime: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (reason && isStrictCi()) throw new Error(`Integration tests cannot run: ${reason}`);
  if (reason) console.warn(`\n[integration] SKIPPED: ${reason}\n`);
  project.provide('sandbox', { available: !reason, image: TEST_IMAGE, reason });
}
