// The package helpers' view of the container runtime: the same translators and hardening as runs, with
// Sandbar's seccomp profile and the host's ulimits, owned (labelled) like any sandbox so the reaper
// removes helpers a crash left behind.
import type { Limits } from '../../shared/limits.js';
import { sandboxSpecOf } from '../sandbox/container-args.js';
import type { Owner } from '../sandbox/container-factory.js';
import type { ContainerRuntime } from '../sandbox/container-runtime.js';
import { dockerArgs } from '../sandbox/docker-args.js';
import { podmanArgs } from '../sandbox/podman-args.js';
import type { SandboxSpec } from '../sandbox/sandbox-spec.js';
import type { PackageRuntime } from './package-manager.js';

export async function packageRuntimeOf(runtime: ContainerRuntime): Promise<PackageRuntime> {
  const info = await runtime.resolve();
  return {
    path: info.path,
    argsOf: (spec: SandboxSpec) => (info.name === 'podman' ? podmanArgs(spec) : dockerArgs(spec)),
    kill: (name) => runtime.killAndRemove([name]),
  };
}

/** A run's spec for `image` (limits, user, labels, seccomp, OCI runtime), minus the name and command. */
export function helperBaseSpec(
  limits: Limits,
  run: { image: string; owner: Owner; ulimits: { nofile: number; nproc: number } | null; seccompProfile?: string; ociRuntime?: string },
): Omit<SandboxSpec, 'name' | 'command'> {
  const { name: _name, command: _command, ...base } = sandboxSpecOf(limits, { ...run, name: 'sandbar-pkg' });
  return base;
}
