// The fan-out benchmark's yardstick: a bare hardened `podman run --rm` (Sandbar's flags, seccomp profile
// and OCI runtime) with the code on the command line, as the engine benchmark's reference does.
import type { Owner } from '../../../electron/sandbox/backend.js';
import { buildContainerArgs } from '../../../electron/sandbox/cli/container-args.js';
import type { RuntimeInfo } from '../../../electron/sandbox/cli/container-runtime.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { seccompProfileFor } from '../../../electron/sandbox/seccomp-profile.js';

export function coldArgsFor(info: RuntimeInfo, owner: Owner, image: string): (name: string, code: string) => string[] {
  const seccompProfile = seccompProfileFor(DEFAULT_ENGINE_CONFIG.seccomp);
  if (!seccompProfile) throw new Error(`the engine's default seccomp mode is ${DEFAULT_ENGINE_CONFIG.seccomp}: the cold baseline would not match Sandbar's profile`);
  const base = buildContainerArgs(DEFAULT_ENGINE_CONFIG.limits, {
    runtime: info.name, image, name: 'x', owner, ulimits: info.ulimits, seccompProfile,
    ...(info.ociRuntimeOverride ? { ociRuntime: info.ociRuntimeOverride } : {}),
  });
  return (name, code) => {
    const args = [...base];
    args[args.indexOf('--name') + 1] = name;
    args.splice(args.length - 1, 1, code);
    return args;
  };
}
