// The package helpers' view of the container runtime: the same translators and hardening as runs (limits'
// user, Sandbar's seccomp profile, the OCI runtime, the host's ulimits), owned and labelled like any
// sandbox so the reaper removes helpers a crash left behind.
import type { Limits } from '../../shared/limits.js';
import { sandboxSpecOf, type SandboxSpec } from '../sandbox/sandbox-spec.js';
import type { Owner } from '../sandbox/backend.js';
import type { ContainerRuntime } from '../sandbox/cli/container-runtime.js';
import { argsFor } from '../sandbox/cli/container-args.js';
import type { PackageRuntime } from './package-manager.js';

export interface HelperHardening {
  limits: Limits;
  owner: Owner;
  seccompProfile?: string;
  ociRuntime?: string;
}

export async function packageRuntimeOf(runtime: ContainerRuntime, hardening: HelperHardening): Promise<PackageRuntime> {
  const info = await runtime.resolve();
  const ociRuntime = hardening.ociRuntime ?? info.ociRuntimeOverride;
  return {
    path: info.path,
    argsOf: (spec: SandboxSpec) => argsFor(info.name, spec),
    kill: (name) => runtime.killAndRemove([name]),
    baseSpec: (image) => {
      const { name: _name, command: _command, ...base } = sandboxSpecOf(hardening.limits, {
        image,
        name: 'sandbar-pkg',
        owner: hardening.owner,
        ulimits: info.ulimits,
        ...(hardening.seccompProfile ? { seccompProfile: hardening.seccompProfile } : {}),
        ...(ociRuntime ? { ociRuntime } : {}),
      });
      return base;
    },
  };
}
