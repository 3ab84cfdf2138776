// Engine configuration from the environment: Sandbar's variables and the reference's MCP_BRIDGE_* ones.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG, engineConfigOf } from '../../../electron/sandbox/engine-config.js';
import { settingsFromEnv, DEFAULT_IMAGE } from '../../../electron/settings/env-config.js';

import { AppError } from '../../../shared/errors.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

const configFromEnv = (env: NodeJS.ProcessEnv) => engineConfigOf(settingsFromEnv(env));

function configError(env: NodeJS.ProcessEnv): AppError {
  try {
    configFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('configFromEnv (the engine config of settingsFromEnv)', () => {
  it('gives the defaults for an empty environment', () => {
    const config = configFromEnv({});
    expect(config).toEqual(DEFAULT_ENGINE_CONFIG);
    expect(config.image).toBe('python:3.14-slim');
    expect(DEFAULT_IMAGE).toBe('python:3.14-slim');
    expect(config.limits).toEqual(DEFAULT_LIMITS);
    expect(config.poolSize).toBe(2);
    expect(config.concurrency).toBe(4);
  });

  it('ignores unrelated and blank variables', () => {
    expect(configFromEnv({ PATH: '/usr/bin', MCP_BRIDGE_TIMEOUT: '   ', MCP_BRIDGE_MEMORY: '' })).toEqual(DEFAULT_ENGINE_CONFIG);
  });

  it('applies MCP_BRIDGE_TIMEOUT', () => {
    expect(configFromEnv({ MCP_BRIDGE_TIMEOUT: '60' }).limits.timeoutSec).toBe(60);
  });

  it('applies MCP_BRIDGE_MAX_TIMEOUT', () => {
    expect(configFromEnv({ MCP_BRIDGE_MAX_TIMEOUT: '600' }).limits.maxTimeoutSec).toBe(600);
  });

  it('applies MCP_BRIDGE_MEMORY (normalised to lower case)', () => {
    expect(configFromEnv({ MCP_BRIDGE_MEMORY: '1g' }).limits.memory).toBe('1g');
    expect(configFromEnv({ MCP_BRIDGE_MEMORY: ' 768M ' }).limits.memory).toBe('768m');
  });

  it('applies MCP_BRIDGE_PIDS', () => {
    expect(configFromEnv({ MCP_BRIDGE_PIDS: '256' }).limits.pids).toBe(256);
  });

  it('applies MCP_BRIDGE_CPUS, fractional allowed', () => {
    expect(configFromEnv({ MCP_BRIDGE_CPUS: '1.5' }).limits.cpus).toBe(1.5);
    expect(configFromEnv({ MCP_BRIDGE_CPUS: '2' }).limits.cpus).toBe(2);
  });

  it('applies MCP_BRIDGE_CONTAINER_USER', () => {
    expect(configFromEnv({ MCP_BRIDGE_CONTAINER_USER: '1000:1000' }).limits.user).toBe('1000:1000');
    expect(configFromEnv({ MCP_BRIDGE_CONTAINER_USER: '1000' }).limits.user).toBe('1000');
  });

  it('applies all of them together and leaves the rest at defaults', () => {
    const config = configFromEnv({
      MCP_BRIDGE_TIMEOUT: '45',
      MCP_BRIDGE_MAX_TIMEOUT: '300',
      MCP_BRIDGE_MEMORY: '256m',
      MCP_BRIDGE_PIDS: '64',
      MCP_BRIDGE_CPUS: '0.5',
      MCP_BRIDGE_CONTAINER_USER: '1234:1234',
      MCP_BRIDGE_IMAGE: 'python:3.12-slim',
    });
    expect(config.limits).toEqual({
      ...DEFAULT_LIMITS,
      timeoutSec: 45,
      maxTimeoutSec: 300,
      memory: '256m',
      pids: 64,
      cpus: 0.5,
      user: '1234:1234',
    });
    expect(config.image).toBe('python:3.12-slim');
    expect(config.poolSize).toBe(DEFAULT_ENGINE_CONFIG.poolSize);
  });

  it('uses MCP_BRIDGE_IMAGE, and SANDBAR_IMAGE wins over it', () => {
    expect(configFromEnv({ MCP_BRIDGE_IMAGE: 'python:3.12-slim' }).image).toBe('python:3.12-slim');
    expect(configFromEnv({ SANDBAR_IMAGE: 'localhost/mine:1' }).image).toBe('localhost/mine:1');
    expect(configFromEnv({ SANDBAR_IMAGE: 'localhost/mine:1', MCP_BRIDGE_IMAGE: 'python:3.12-slim' }).image).toBe('localhost/mine:1');
    expect(configFromEnv({ SANDBAR_IMAGE: '  localhost/mine:2  ' }).image).toBe('localhost/mine:2');
  });

  it('keeps the base image when the image variables are blank', () => {
    expect(configFromEnv({ MCP_BRIDGE_IMAGE: '   ' }).image).toBe(DEFAULT_IMAGE);
  });

  // BUG (env-config.ts, image line): `env.SANDBAR_IMAGE ?? env.MCP_BRIDGE_IMAGE` treats an empty
  // SANDBAR_IMAGE as set, so SANDBAR_IMAGE="" silently discards MCP_BRIDGE_IMAGE (the limit variables and
  // the runtime variables treat blank as unset). Remove `.fails` once fixed.
  it('treats a blank SANDBAR_IMAGE as unset and falls back to MCP_BRIDGE_IMAGE', () => {
    expect(configFromEnv({ SANDBAR_IMAGE: '', MCP_BRIDGE_IMAGE: 'python:3.12-slim' }).image).toBe('python:3.12-slim');
  });

  it.each([
    ['MCP_BRIDGE_MEMORY', 'lots'],
    ['MCP_BRIDGE_MEMORY', '8m'],
    ['MCP_BRIDGE_PIDS', '1.5'],
    ['MCP_BRIDGE_PIDS', '4'],
    ['MCP_BRIDGE_PIDS', 'many'],
    ['MCP_BRIDGE_TIMEOUT', 'abc'],
    ['MCP_BRIDGE_TIMEOUT', '2.5'],
    ['MCP_BRIDGE_TIMEOUT', '0'],
    ['MCP_BRIDGE_MAX_TIMEOUT', '99999'],
    ['MCP_BRIDGE_CPUS', 'two'],
    ['MCP_BRIDGE_CPUS', '0'],
    ['MCP_BRIDGE_CONTAINER_USER', '0'],
    ['MCP_BRIDGE_CONTAINER_USER', '0:0'],
    ['MCP_BRIDGE_CONTAINER_USER', 'root'],
  ])('refuses %s=%s with an invalid_config error naming the variable', (variable, value) => {
    const err = configError({ [variable]: value });
    expect(err.code).toBe('invalid_config');
    expect(err.message).toContain(variable);
    expect(err.message).toContain(JSON.stringify(value));
  });

  it('explains why in the error', () => {
    expect(configError({ MCP_BRIDGE_PIDS: '1.5' }).message).toBe('Invalid MCP_BRIDGE_PIDS="1.5": must be a whole number');
    expect(configError({ MCP_BRIDGE_CPUS: 'two' }).message).toBe('Invalid MCP_BRIDGE_CPUS="two": must be a number');
    expect(configError({ MCP_BRIDGE_CONTAINER_USER: '0' }).message).toContain('never runs as root');
    expect(configError({ MCP_BRIDGE_MEMORY: '8m' }).message).toBe('Invalid MCP_BRIDGE_MEMORY="8m": memory must be at least 32m');
  });

  it('refuses MCP_BRIDGE_MEMORY=lots as invalid_config saying it must be a size', () => {
    const err = configError({ MCP_BRIDGE_MEMORY: 'lots' });
    expect(err.code).toBe('invalid_config');
    expect(err.message).toBe('Invalid MCP_BRIDGE_MEMORY="lots": must be a size such as 512m or 1g');
  });

  it('names the failing variable, not another one that was set', () => {
    const err = configError({ MCP_BRIDGE_TIMEOUT: '10', MCP_BRIDGE_MEMORY: 'lots', MCP_BRIDGE_PIDS: '64' });
    expect(err.message).toContain('MCP_BRIDGE_MEMORY');
    expect(err.message).not.toContain('MCP_BRIDGE_TIMEOUT');
  });

  it('clamps a timeout above the maximum to the maximum', () => {
    expect(configFromEnv({ MCP_BRIDGE_TIMEOUT: '500' }).limits.timeoutSec).toBe(DEFAULT_LIMITS.maxTimeoutSec);
    expect(configFromEnv({ MCP_BRIDGE_TIMEOUT: '500', MCP_BRIDGE_MAX_TIMEOUT: '200' }).limits).toMatchObject({ timeoutSec: 200, maxTimeoutSec: 200 });
    expect(configFromEnv({ MCP_BRIDGE_TIMEOUT: '9999' }).limits.timeoutSec).toBe(120);
    expect(configFromEnv({ MCP_BRIDGE_MAX_TIMEOUT: '10' }).limits).toMatchObject({ timeoutSec: 10, maxTimeoutSec: 10 });
  });

});
