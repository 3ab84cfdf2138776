// Reads the engine's configuration from the environment: Sandbar's own variables and the reference
// bridge's MCP_BRIDGE_* aliases. An invalid value is an error that names the variable.
import { AppError } from '../../shared/errors.js';
import { DEFAULT_LIMITS, LimitsSchema, type Limits } from '../../shared/limits.js';
import type { EngineConfig } from '../sandbox/engine.js';
import { SECCOMP_MODES, type SeccompMode } from '../sandbox/seccomp-profile.js';

export const DEFAULT_IMAGE = 'python:3.14-slim';

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  limits: DEFAULT_LIMITS,
  image: DEFAULT_IMAGE,
  poolSize: 2,
  concurrency: 4,
  seccomp: 'sandbar',
  ociRuntime: null,
};

type LimitKey = keyof Limits;
const LIMIT_VARS: [string, LimitKey, 'int' | 'number' | 'string'][] = [
  ['MCP_BRIDGE_TIMEOUT', 'timeoutSec', 'int'],
  ['MCP_BRIDGE_MAX_TIMEOUT', 'maxTimeoutSec', 'int'],
  ['MCP_BRIDGE_MEMORY', 'memory', 'string'],
  ['MCP_BRIDGE_PIDS', 'pids', 'int'],
  ['MCP_BRIDGE_CPUS', 'cpus', 'number'],
  ['MCP_BRIDGE_CONTAINER_USER', 'user', 'string'],
];

function invalid(variable: string, value: string, why: string): AppError {
  return new AppError('invalid_config', `Invalid ${variable}=${JSON.stringify(value)}: ${why}`);
}

export function configFromEnv(env: NodeJS.ProcessEnv, base: EngineConfig = DEFAULT_ENGINE_CONFIG): EngineConfig {
  const limits: Record<string, unknown> = { ...base.limits };
  const source = new Map<LimitKey, string>();
  for (const [variable, key, kind] of LIMIT_VARS) {
    const raw = env[variable]?.trim();
    if (!raw) continue;
    const value = kind === 'string' ? raw : Number(raw);
    if (kind !== 'string' && (!Number.isFinite(value) || (kind === 'int' && !Number.isInteger(value)))) {
      throw invalid(variable, raw, kind === 'int' ? 'must be a whole number' : 'must be a number');
    }
    limits[key] = value;
    source.set(key, variable);
  }
  // The reference lets a default above the maximum through by clamping; keep that for env values.
  if (typeof limits.timeoutSec === 'number' && typeof limits.maxTimeoutSec === 'number' && limits.timeoutSec > limits.maxTimeoutSec) {
    limits.timeoutSec = limits.maxTimeoutSec;
  }
  const parsed = LimitsSchema.safeParse(limits);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as LimitKey;
    const variable = source.get(key) ?? `limit ${String(key)}`;
    throw invalid(variable, String(limits[key]), issue.message);
  }
  const image = env.SANDBAR_IMAGE?.trim() || env.MCP_BRIDGE_IMAGE?.trim() || base.image;
  const seccompRaw = env.SANDBAR_SECCOMP?.trim();
  if (seccompRaw && !(SECCOMP_MODES as readonly string[]).includes(seccompRaw)) {
    throw invalid('SANDBAR_SECCOMP', seccompRaw, `must be one of ${SECCOMP_MODES.join(', ')}`);
  }
  const ociRaw = env.SANDBAR_OCI_RUNTIME?.trim();
  if (ociRaw && !/^[A-Za-z0-9._/-]+$/.test(ociRaw)) throw invalid('SANDBAR_OCI_RUNTIME', ociRaw, 'must be an OCI runtime name or path');
  return {
    ...base,
    limits: parsed.data,
    image,
    seccomp: (seccompRaw as SeccompMode | undefined) ?? base.seccomp,
    ociRuntime: ociRaw || base.ociRuntime,
  };
}
