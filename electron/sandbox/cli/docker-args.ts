// Docker's translator: a SandboxSpec to the argv of `docker run` (pure; tested flag by flag). Docker has
// no runtime-side lifetime cap (`--timeout`), so its containers rely on the agent's idle backstop and
// the reaper; capabilities() says so.
import { imageAndCommand, labelFlags, sharedRunFlags } from './cli-args.js';
import type { SandboxSpec } from '../sandbox-spec.js';

export function dockerArgs(spec: SandboxSpec): string[] {
  const args: string[] = ['run', '--rm', '--interactive', '--name', spec.name, ...labelFlags(spec)];
  // Docker takes the OCI runtime as a `run` flag; runsc must be registered in daemon.json (with
  // "runtimeArgs": ["--network=none"], the same gVisor network switch Podman passes per run).
  if (spec.ociRuntime) args.push(`--runtime=${spec.ociRuntime}`);
  args.push(...sharedRunFlags(spec, { podman: false }));
  args.push(...imageAndCommand(spec));
  return args;
}
