// End-to-end tests drive the real panel in Debian's Chromium against a real `sandbar serve` with real
// podman. Locally a missing piece skips them with a message; in CI (CI=true) it is a failure.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { isStrictCi } from '../ci-mode.js';
import setupSandbox from '../integration/global-setup.js';

import { CHROMIUM } from './serve-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { available: boolean; reason: string };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  await setupSandbox(project);
  const sandbox = project.getProvidedContext().sandbox;
  let reason = sandbox.available ? '' : sandbox.reason;
  if (!reason && !existsSync(CHROMIUM)) reason = `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
  if (!reason && !existsSync(path.resolve('dist/renderer/index.html'))) reason = 'the panel is not built (npm run build)';
  if (!reason && !existsSync(path.resolve('dist/electron/cli.js'))) reason = 'the CLI is not built (npm run build)';
  if (!reason && !existsSync(path.resolve('dist/mcp-app/run.html'))) reason = 'the run view is not built (npm run build)';
  if (reason && isStrictCi()) throw new Error(`End-to-end tests cannot run: ${reason}`);
  if (reason) console.warn(`\n[e2e] SKIPPED: ${reason}\n`);
  project.provide('e2e', { available: !reason, reason });
}
