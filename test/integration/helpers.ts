// Shared set-up for tests that run real containers.
import { inject } from 'vitest';
import { execFileSync } from 'node:child_process';
import { newOwner } from '../../electron/sandbox/backend.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';

export const sandbox = inject('sandbox');

export function testRuntime(): ContainerRuntime {
  return new ContainerRuntime({ env: process.env, platform: process.platform });
}

/** The Podman/Docker backend over a runtime (the one under test by default), with an owner of its own. */
export function testBackend(runtime: ContainerRuntime = testRuntime()): CliBackend {
  return new CliBackend(runtime, newOwner());
}

/** The engine config under test: the project's OCI runtime (runsc for the gVisor tier) unless overridden, a pool that does not grow. */
export function testConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  const ociRuntime = sandbox.runtime?.ociRuntime ?? null;
  // A fixed pool unless a test asks for one that grows (poolMax): fewer containers, steadier tests.
  const { poolMax: _grows, ...defaults } = DEFAULT_ENGINE_CONFIG;
  return { ...defaults, limits: DEFAULT_LIMITS, image: sandbox.image, poolSize: 0, ociRuntime, ...overrides };
}

/** The isolation tier under test: gVisor has documented, probed exceptions (see capabilities.ts). */
export const underGvisor = sandbox.runtime?.ociRuntime === 'runsc';

export async function startEngine(overrides: Partial<EngineConfig> = {}, options: EngineOptions = {}): Promise<Engine> {
  const engine = new Engine(testBackend(), testConfig(overrides), options);
  await engine.start();
  return engine;
}

/** The runtime binary the global setup found for this project (never assumed to be podman). */
export function runtimeBinary(): string {
  if (!sandbox.runtime) throw new Error(`no container runtime under test: ${sandbox.reason}`);
  return sandbox.runtime.path;
}

export function runtimeName(): 'podman' | 'docker' | null {
  return sandbox.runtime?.name ?? null;
}

/** Names of containers owned by a Sandbar instance (all states). */
export function containersOf(instanceId: string): string[] {
  const out = execFileSync(runtimeBinary(), ['ps', '--all', '--filter', `label=sandbar.instance=${instanceId}`, '--format', '{{.Names}}'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** Containers, volumes and images labelled for a Sandbar instance (sandboxes use tmpfs only: the last two stay empty). */
export function leftBehind(instanceId: string): { containers: string[]; volumes: string[]; images: string[] } {
  const list = (args: string[]) => execFileSync(runtimeBinary(), [...args, '--filter', `label=sandbar.instance=${instanceId}`, '--quiet'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return { containers: list(['ps', '--all']), volumes: list(['volume', 'ls']), images: list(['images']) };
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}
