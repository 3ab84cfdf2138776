// The engine's view of a container run on Podman or Docker: its SandboxSpec, handed to that CLI's translator.
import type { Limits } from '../../../shared/limits.js';
import { dockerArgs } from './docker-args.js';
import { podmanArgs } from './podman-args.js';
import type { RuntimeName } from './runtime-locator.js';
import { sandboxSpecOf, type SandboxRun, type SandboxSpec } from '../sandbox-spec.js';

/** The engine's run on a CLI runtime: the backend-neutral run plus which CLI translates it. */
export interface ContainerRun extends SandboxRun {
  runtime: RuntimeName;
}

/** The argv for the engine's runtime: one translator per backend, chosen by name. */
export function buildContainerArgs(limits: Limits, run: ContainerRun): string[] {
  return argsFor(run.runtime, sandboxSpecOf(limits, run));
}

/** The CLI's own translator of a spec (package helpers use it too). */
export function argsFor(runtime: RuntimeName, spec: SandboxSpec): string[] {
  return runtime === 'podman' ? podmanArgs(spec) : dockerArgs(spec);
}
