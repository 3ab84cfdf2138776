// Integration tests need a real container runtime and the local test image. Locally a missing one
// skips the suite with a message; in CI (CI=true) it is a failure, never a silent skip. Each project
// (one per runtime in SANDBAR_TEST_RUNTIMES) checks its own runtime, from the project's env.
import type { TestProject } from 'vitest/node';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { isStrictCi } from '../ci-mode.js';

export const TEST_IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';

export interface SandboxUnderTest {
  available: boolean;
  image: string;
  reason: string;
  /** The runtime found (never assumed): its binary, its name, and the OCI runtime forced for this project. */
  runtime: { name: 'podman' | 'docker'; path: string; rootless: boolean; ociRuntime: string | null } | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: SandboxUnderTest;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const env = { ...process.env, ...(project.config.env as Record<string, string> | undefined) };
  const runtime = new ContainerRuntime({ env, platform: process.platform });
  const ociRuntime = env.SANDBAR_OCI_RUNTIME?.trim() || null;
  let reason = '';
  let found: SandboxUnderTest['runtime'] = null;
  try {
    const info = await runtime.resolve();
    found = { name: info.name, path: info.path, rootless: info.rootless, ociRuntime };
    if (ociRuntime && !info.availableOciRuntimes.includes(ociRuntime)) reason = `the OCI runtime ${ociRuntime} is not installed`;
    else if (!(await runtime.imageExists(TEST_IMAGE))) reason = `the test image ${TEST_IMAGE} is missing from ${info.name} (build it with .ci/build-test-image.sh)`;
  } catch (err) {
    reason = `no working container runtime: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (reason && isStrictCi()) throw new Error(`Integration tests (${project.name}) cannot run: ${reason}`);
  if (reason) console.warn(`\n[${project.name}] SKIPPED: ${reason}\n`);
  project.provide('sandbox', { available: !reason, image: TEST_IMAGE, reason, runtime: found });
}
