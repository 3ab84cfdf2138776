// Composition root: settings → runtime → pool → engine (→ history → mcp → control, as they arrive).
// Services are wired by hand; constructors do no I/O, start() and dispose() do.
import { ContainerRuntime } from './sandbox/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from './sandbox/engine.js';
import { collectHealth } from './sandbox/health.js';
import { configFromEnv } from './settings/env-config.js';
import type { HealthReport } from '../shared/health.js';

export interface SandbarCore {
  config: EngineConfig;
  runtime: ContainerRuntime;
  engine: Engine;
  health(options?: { probe?: boolean }): Promise<HealthReport>;
  dispose(): Promise<void>;
}

export function createCore(options: {
  env?: NodeJS.ProcessEnv;
  overrides?: Partial<EngineConfig>;
  engine?: EngineOptions;
} = {}): SandbarCore {
  const env = options.env ?? process.env;
  const config = { ...configFromEnv(env), ...options.overrides };
  const runtime = new ContainerRuntime({ env, platform: process.platform });
  const engine = new Engine(runtime, config, options.engine);
  return {
    config,
    runtime,
    engine,
    health: ({ probe = true } = {}) => collectHealth(runtime, engine.owner, engine.spec(), { probe }),
    dispose: () => engine.dispose(),
  };
}
