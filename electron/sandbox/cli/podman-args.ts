// Podman's translator: a SandboxSpec to the argv of `podman run` (pure; tested flag by flag).
import { imageAndCommand, labelFlags, sharedRunFlags } from './cli-args.js';
import type { SandboxSpec } from '../sandbox-spec.js';

export function podmanArgs(spec: SandboxSpec): string[] {
  const args: string[] = [];
  // Podman takes the OCI runtime and its flags as global options, before `run`. `--flag=value` wherever a
  // value comes from settings: it can never be read as a flag of its own.
  if (spec.ociRuntime) args.push(`--runtime=${spec.ociRuntime}`);
  // gVisor refuses to start in the root network namespace ("cannot run with network enabled"): its own
  // network stack is switched off too, on top of --network none.
  if (spec.isolation === 'runsc') args.push('--runtime-flag', 'network=none');
  args.push('run', '--rm', '--interactive', '--name', spec.name, ...labelFlags(spec));
  args.push(...sharedRunFlags(spec, { podman: true }));
  if (spec.lifetime.maxLifetimeSec) args.push('--timeout', String(spec.lifetime.maxLifetimeSec));
  args.push(...imageAndCommand(spec));
  return args;
}
