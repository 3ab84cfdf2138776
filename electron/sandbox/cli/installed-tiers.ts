// Every CLI runtime installed here and the isolation tiers each offers (runc, and gVisor where Podman can
// use runsc per run), each as a backend ready to probe with the same spec.
import type { ContainerSpec, Owner, SandboxBackend } from '../backend.js';
import { isolationOf, type Isolation } from '../sandbox-spec.js';
import { CliBackend } from './cli-backend.js';
import { ContainerRuntime } from './container-runtime.js';
import { locateRuntime, RUNTIME_ENV_VARS } from './runtime-locator.js';

export interface InstalledTier {
  runtime: 'podman' | 'docker';
  isolation: Isolation;
  /** Absent when the runtime is installed but does not answer (`error` says why). */
  backend?: SandboxBackend;
  /** The spec to probe this tier with: the caller's, with this tier's OCI runtime. */
  spec: ContainerSpec;
  error?: string;
}

export async function installedTiers(options: { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; owner: Owner; spec: ContainerSpec }): Promise<InstalledTier[]> {
  const tiers: InstalledTier[] = [];
  const { ociRuntime: _chosen, ...base } = options.spec;
  for (const name of ['podman', 'docker'] as const) {
    const env: NodeJS.ProcessEnv = { ...options.env, [RUNTIME_ENV_VARS[0]]: name };
    for (const alias of RUNTIME_ENV_VARS.slice(1)) delete env[alias];
    try {
      if (!locateRuntime({ env, platform: options.platform })) continue;
    } catch {
      continue; // not installed
    }
    const runtime = new ContainerRuntime({ env, platform: options.platform });
    let available: string[];
    try {
      available = (await runtime.resolve()).availableOciRuntimes;
    } catch (err) {
      tiers.push({ runtime: name, isolation: 'runc', spec: base, error: err instanceof Error ? err.message : String(err) });
      continue;
    }
    const backend = new CliBackend(runtime, options.owner);
    // gVisor needs only Podman's per-run flags; Docker needs runsc registered in daemon.json first.
    const ociRuntimes: (string | undefined)[] = [undefined, ...(name === 'podman' && available.includes('runsc') ? ['runsc'] : [])];
    for (const ociRuntime of ociRuntimes) {
      const spec: ContainerSpec = ociRuntime ? { ...base, ociRuntime } : base;
      tiers.push({ runtime: name, isolation: ociRuntime ? isolationOf(ociRuntime) : 'runc', backend, spec });
    }
  }
  return tiers;
}
