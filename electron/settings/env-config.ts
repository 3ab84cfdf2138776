// The engine's configuration, derived from resolved settings.
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import type { EngineConfig } from '../sandbox/engine.js';
import { envLayer, resolveSettings } from './settings-layers.js';

export const DEFAULT_IMAGE = DEFAULT_SETTINGS.image;

export function engineConfigOf(settings: Settings): EngineConfig {
  return {
    limits: settings.limits,
    image: settings.image,
    poolSize: settings.poolSize,
    concurrency: settings.concurrency,
    seccomp: settings.seccomp,
    ociRuntime: settings.ociRuntime,
    queueLimit: settings.queueLimit,
    maxToolCallsInFlight: settings.maxToolCallsInFlight,
    preload: settings.preload,
    sessionMaxSec: settings.sessionMaxSec,
    maxHeldSec: settings.approvalTimeoutSec,
    artifactCaps: { imageCapBytes: settings.imageCapBytes, maxFiles: settings.artifactMaxFiles, maxBytes: settings.artifactMaxBytes },
  };
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = engineConfigOf(DEFAULT_SETTINGS);

/** The environment alone over the defaults (tests and tools that have no settings file). */
export function configFromEnv(env: NodeJS.ProcessEnv): EngineConfig {
  return engineConfigOf(resolveSettings([envLayer(env)]));
}
