// The yardstick several benchmarks measure against, in the same run: a cold hardened `podman run --rm` (or
// docker) of the same code, with Sandbar's flags and seccomp profile, nothing kept between runs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { newOwner } from '../../electron/sandbox/backend.js';
import { buildContainerArgs } from '../../electron/sandbox/cli/container-args.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { seccompProfileFor } from '../../electron/sandbox/seccomp-profile.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';

const run = promisify(execFile);

export interface ColdRun {
  runtime: string;
  runtimePath: string;
  /** The full argument list for one run of the agent (a fresh name each call); the last one is its command. */
  args(): string[];
  /** One cold run of `code` (the agent's command replaced by the code), start to exit. */
  once(code: string): Promise<void>;
}

export async function coldRun(image: string, tag: string): Promise<ColdRun> {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  const info = await runtime.resolve();
  const seccompProfile = seccompProfileFor('sandbar');
  const bare = buildContainerArgs(DEFAULT_LIMITS, {
    runtime: info.name, image, name: 'x', owner: newOwner(), ulimits: info.ulimits,
    ...(seccompProfile ? { seccompProfile } : {}),
    ...(info.ociRuntimeOverride ? { ociRuntime: info.ociRuntimeOverride } : {}),
  });
  let i = 0;
  const args = () => {
    const out = [...bare];
    out[out.indexOf('--name') + 1] = `sandbar-bench-${tag}-${process.pid}-${i++}`;
    return out;
  };
  return {
    runtime: info.name,
    runtimePath: info.path,
    args,
    once: async (code) => {
      await run(info.path, [...args().slice(0, -1), code]);
    },
  };
}
