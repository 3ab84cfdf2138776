// Shared set-up for tests that run real containers.
import { inject } from 'vitest';
import { execFileSync } from 'node:child_process';
import { ContainerRuntime } from '../../electron/sandbox/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/settings/env-config.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';

export const sandbox = inject('sandbox');

export function testRuntime(): ContainerRuntime {
  return new ContainerRuntime({ env: process.env, platform: process.platform });
}

export function testConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  return { ...DEFAULT_ENGINE_CONFIG, limits: DEFAULT_LIMITS, image: sandbox.image, poolSize: 0, ...overrides };
}

export async function startEngine(overrides: Partial<EngineConfig> = {}, options: EngineOptions = {}): Promise<Engine> {
  const engine = new Engine(testRuntime(), testConfig(overrides), options);
  await engine.start();
  return engine;
}

export function runtimeBinary(): string {
  return process.env.SANDBAR_RUNTIME ?? 'podman';
}

/** Names of containers owned by a Sandbar instance (all states). */
export function containersOf(instanceId: string): string[] {
  const out = execFileSync(runtimeBinary(), ['ps', '--all', '--filter', `label=sandbar.instance=${instanceId}`, '--format', '{{.Names}}'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}
