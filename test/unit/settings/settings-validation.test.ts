// Every settings field refuses a bad value from the panel with a message a person can act on, under the
// field's dotted path, and a refused update writes nothing.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LimitsSchema } from '../../../shared/limits.js';
import { describeFieldErrors, settingsFieldErrors } from '../../../shared/settings-errors.js';
import { DEFAULT_SETTINGS, parseSettings, SettingsSchema } from '../../../shared/settings.js';
import { fileText, homeWith, json, refusal, serviceOn } from './settings-helpers.js';

// [field, patch, expected message fragment]. The patch is nested; the field is where the error must land.
const CASES: [string, Record<string, unknown>, string][] = [
  ['limits', { limits: 'small' }, 'must be an object'],
  ['limits.memory', { limits: { memory: 'lots' } }, 'must be a size such as 512m or 1g'],
  ['limits.memory', { limits: { memory: '8m' } }, 'memory must be at least 32m'],
  ['limits.memory', { limits: { memory: 512 } }, 'must be text'],
  ['limits.pids', { limits: { pids: 4 } }, 'must be at least 16'],
  ['limits.pids', { limits: { pids: 'many' } }, 'must be a number'],
  ['limits.pids', { limits: { pids: 20.5 } }, 'must be a whole number'],
  ['limits.cpus', { limits: { cpus: 0 } }, 'must be at least 0.1'],
  ['limits.cpus', { limits: { cpus: 'two' } }, 'must be a number'],
  ['limits.timeoutSec', { limits: { timeoutSec: 0 } }, 'must be at least 1 second'],
  ['limits.timeoutSec', { limits: { timeoutSec: 200 } }, 'the default timeout cannot exceed the maximum timeout'],
  ['limits.maxTimeoutSec', { limits: { maxTimeoutSec: 99_999 } }, 'must be at most 3600 seconds'],
  ['limits.outputCapBytes', { limits: { outputCapBytes: 10 } }, 'must be at least 1024'],
  ['limits.tmpSize', { limits: { tmpSize: '1k' } }, 'tmp size must be at least 1m'],
  ['limits.workspaceSize', { limits: { workspaceSize: 'big' } }, 'must be a size such as 512m or 1g'],
  ['limits.user', { limits: { user: '0:0' } }, 'the sandbox never runs as root'],
  ['limits.user', { limits: { user: 'nobody' } }, 'must be a numeric uid or uid:gid'],
  ['limits.user', { limits: { user: '1000:0' } }, 'the sandbox never runs as root (uid or gid 0)'],
  ['limits.user', { limits: { user: '4294967296' } }, 'uid and gid must be at most 2147483647'],
  ['limits.user', { limits: { user: '1000:2147483648' } }, 'uid and gid must be at most 2147483647'],
  ['limits.colour', { limits: { colour: 'red' } }, 'unknown setting'],
  ['image', { image: '  ' }, 'must name an image'],
  ['image', { image: 3 }, 'must name an image'],
  ['image', { image: '--privileged' }, 'not a flag'],
  ['image', { image: 'python:3.14 --privileged' }, 'without spaces or control characters'],
  ['image', { image: 'python:3\u001b[2J' }, 'without spaces or control characters'],
  ['image', { image: 'Python:3' }, 'must be an image reference such as'],
  ['runtime', { runtime: '' }, 'must be podman, docker or a path to one'],
  ['poolSize', { poolSize: 17 }, 'must be at most 16'],
  ['poolMax', { poolMax: 65 }, 'must be at most 64'],
  ['poolMax', { poolMax: 1.5 }, 'must be a whole number'],
  ['poolMax', { poolSize: 4, poolMax: 3 }, 'must be at least poolSize (4): the pool never keeps fewer than poolSize ready'],
  ['poolSize', { poolSize: -1 }, 'must be at least 0'],
  ['concurrency', { concurrency: 0 }, 'must be at least 1'],
  ['concurrency', { concurrency: 2.5 }, 'must be a whole number'],
  ['queueLimit', { queueLimit: -1 }, 'must be at least 0'],
  ['queueLimit', { queueLimit: 'many' }, 'must be a whole number'],
  ['maxToolCallsInFlight', { maxToolCallsInFlight: 0 }, 'must be at least 1'],
  ['maxToolCallsInFlight', { maxToolCallsInFlight: 257 }, 'must be at most 256'],
  ['httpPort', { httpPort: 70_000 }, 'must be a port number from 0 to 65535'],
  ['httpPort', { httpPort: '8080' }, 'must be a port number from 0 to 65535'],
  ['outputMode', { outputMode: 'yaml' }, 'must be compact or toon'],
  ['maxCodeBytes', { maxCodeBytes: 10 }, 'must be at least 1024 bytes (1 KiB)'],
  ['maxCodeBytes', { maxCodeBytes: 64 * 1024 ** 2 }, 'must be at most 16777216 bytes (16 MiB)'],
  ['seccomp', { seccomp: 'off' }, 'must be sandbar or runtime-default'],
  ['ociRuntime', { ociRuntime: 'run sc' }, 'must be an OCI runtime name or path'],
  ['ociRuntime', { ociRuntime: '--debug' }, 'must be an OCI runtime name or path'],
  ['runtime', { runtime: '-x' }, 'not a flag'],
  ['kubeconfig', { kubeconfig: ' ' }, 'must be a path to a kubeconfig file'],
  ['kubernetesNamespace', { kubernetesNamespace: 'Team_A' }, 'must be a namespace name'],
  ['kubernetesNamespace', { kubernetesNamespace: '-x' }, 'must be a namespace name'],
  ['kubernetesRuntimeClass', { kubernetesRuntimeClass: 'g visor' }, 'must be a RuntimeClass name'],
  ['mcpServers', { mcpServers: ['github'] }, 'must be an object of server entries by name'],
  ['mcpServers.gh', { mcpServers: { gh: { command: 'npx', shell: true } } }, 'unknown setting: shell'],
  ['mcpServers.gh.args.0', { mcpServers: { gh: { command: 'npx', args: [7] } } }, 'must be a string'],
  ['mcpServers.gh', { mcpServers: { gh: { args: ['x'] } } }, 'needs a "command" or a "url"'],
  ['mcpServers.a b', { mcpServers: { 'a b': { command: 'npx' } } }, 'server names must be 1 to 64 characters of A-Z, a-z, 0-9, "_", "." and "-"'],
  ['mcpServers.x\u001b[2J', { mcpServers: { 'x\u001b[2J': { command: 'npx' } } }, 'server names must be'],
  [`mcpServers.${'n'.repeat(65)}`, { mcpServers: { ['n'.repeat(65)]: { command: 'npx' } } }, 'server names must be'],
  ['serverPolicies', { serverPolicies: 'deny' }, 'must be an object of server names to allow or deny'],
  ['serverPolicies.github', { serverPolicies: { github: 'maybe' } }, 'must be allow or deny'],
  ['importClients', { importClients: 'cursor' }, 'must be a list of client names'],
  ['importClients.1', { importClients: ['cursor', 7] }, 'must be a client name'],
  ['allowSelfServer', { allowSelfServer: 'yes' }, 'must be true or false'],
  ['serverStartTimeoutSec', { serverStartTimeoutSec: 301 }, 'must be at most 300 seconds'],
  ['historyMaxAgeDays', { historyMaxAgeDays: 0 }, 'must be at least 1 day'],
  ['historyMaxMB', { historyMaxMB: 5 }, 'must be at least 10 MB'],
  ['toolCallTimeoutSec', { toolCallTimeoutSec: 0 }, 'must be at least 1 second'],
  ['launchAtLogin', { launchAtLogin: 1 }, 'must be true or false'],
  ['egress', { egress: ['api.example.com'] }, 'must be an object with allow and deny lists'],
  ['egress.allow.0', { egress: { allow: ['*.com'] } }, 'whole top-level domain'],
  ['secrets.github', { secrets: { github: { hosts: ['api.example.com'] } } }, 'exactly one of value, env or file'],
  ['egressCaFile', { egressCaFile: 'ca.pem' }, 'must be an absolute path to a PEM file'],
  ['egressMaxBytes', { egressMaxBytes: 10 }, 'must be at least'],
  ['egressMaxConnections', { egressMaxConnections: 0 }, 'must be at least 1'],
  ['sessionIdleSec', { sessionIdleSec: 5 }, 'must be at least 10 seconds'],
  ['sessionMaxSec', { sessionMaxSec: 1.5 }, 'must be a whole number'],
  ['maxSessions', { maxSessions: 17 }, 'must be at most 16'],
  ['sessionCheckpoints', { sessionCheckpoints: 21 }, 'must be at most 20'],
  ['sessionCheckpoints', { sessionCheckpoints: -1 }, 'must be at least 0'],
  ['toolPolicies', { toolPolicies: ['everything'] }, 'must be an object of server or server/tool names to allow, ask or deny'],
  ['toolPolicies.everything/echo', { toolPolicies: { 'everything/echo': 'maybe' } }, 'must be allow, ask or deny'],
  ['approvalTimeoutSec', { approvalTimeoutSec: 1 }, 'must be at least 5 seconds'],
  ['packageIndex', { packageIndex: 'file:///etc/' }, 'must be the http(s) URL of a simple package index'],
  ['packageCacheMB', { packageCacheMB: 1 }, 'must be at least 64 MB'],
  ['imageCapBytes', { imageCapBytes: 100 }, 'must be at least 10000 bytes'],
  ['artifactMaxFiles', { artifactMaxFiles: 101 }, 'must be at most 100'],
  ['artifactMaxBytes', { artifactMaxBytes: -1 }, 'must be at least 0 bytes'],
  ['preload.0', { preload: ['os; import x'] }, 'must be a module name such as pandas or matplotlib.pyplot'],
  ['preload', { preload: 'numpy' }, 'must be a list of module names'],
  ['folders', { folders: '/data' }, 'must be a list of folders'],
  ['folders.0.name', { folders: [{ name: 'Data', path: '/data' }] }, 'must be a name: lowercase letters'],
  ['folders.0.name', { folders: [{ name: '-x', path: '/data' }] }, 'must be a name: lowercase letters'],
  ['folders.0.path', { folders: [{ name: 'data', path: 'data' }] }, 'must be an absolute path to a folder on this computer'],
  ['folders.0.path', { folders: [{ name: 'data', path: '/a,readonly=false' }] }, 'cannot contain a comma, colon, double quote or control character'],
  ['folders.0.path', { folders: [{ name: 'data', path: '/a\nb' }] }, 'cannot contain a comma, colon, double quote or control character'],
  ['folders.0.writable', { folders: [{ name: 'data', path: '/data', writable: 'yes' }] }, 'must be true or false'],
  ['folders.1.name', { folders: [{ name: 'data', path: '/a' }, { name: 'data', path: '/b' }] }, 'the name data is used twice'],
  ['colour', { colour: 'blue' }, 'unknown setting'],
];

describe('settings validation from the panel', () => {
  it('has a case for every field of the schema, limits included', () => {
    const covered = new Set(CASES.map(([field]) => field.replace(/\.\d+$|\.github$/, '')));
    for (const key of Object.keys(SettingsSchema.shape)) expect(covered, key).toContain(key);
    for (const key of Object.keys(LimitsSchema.shape)) expect(covered, `limits.${key}`).toContain(`limits.${key}`);
  });

  it.each(CASES)('refuses %s with %j, and writes nothing', (field, patch, fragment) => {
    const original = json({ httpPort: 9000, limits: { pids: 200 } });
    const home = homeWith(original);
    const service = serviceOn(home);
    const before = service.get();
    const err = refusal(() => service.update(patch));
    expect(err.code).toBe('invalid_config');
    expect(Object.keys(err.fields ?? {})).toEqual([field]);
    expect(err.fields![field]).toContain(fragment);
    expect(err.message).toBe(`Some settings are not valid: ${field}: ${err.fields![field]}`);
    expect(fileText(home)).toBe(original);
    expect(service.get()).toEqual(before);
  });

  it('never shows zod’s own wording for any case', () => {
    for (const [, patch] of CASES) {
      const parsed = parseSettings({ ...DEFAULT_SETTINGS, ...patch, limits: { ...DEFAULT_SETTINGS.limits, ...(patch.limits as object) } });
      if (parsed.success) continue; // unknown keys are refused by the service, not the schema
      for (const issue of parsed.error.issues) expect(issue.message).not.toMatch(/^(Invalid input|Too small|Too big|Invalid option)/);
    }
  });

  it('reports every bad field of one update at once', () => {
    const home = homeWith();
    const err = refusal(() => serviceOn(home).update({ poolSize: 99, limits: { memory: 'x' }, colour: 1 }));
    expect(err.fields).toEqual({
      colour: 'unknown setting',
      'limits.memory': 'must be a size such as 512m or 1g',
      poolSize: 'must be at most 16',
    });
  });

  it('accepts a default timeout above the old maximum when the maximum rises in the same update', () => {
    const service = serviceOn(homeWith());
    expect(service.update({ limits: { timeoutSec: 200, maxTimeoutSec: 300 } }).settings.limits).toMatchObject({ timeoutSec: 200, maxTimeoutSec: 300 });
  });
});

describe('settingsFieldErrors', () => {
  it('keys messages by dotted path, the first message on a field winning', () => {
    const error = new z.ZodError([
      { code: 'custom', path: ['limits', 'memory'], message: 'first', input: 'x' },
      { code: 'custom', path: ['limits', 'memory'], message: 'second', input: 'x' },
      { code: 'custom', path: ['importClients', 2], message: 'third', input: 'x' },
    ]);
    expect(settingsFieldErrors(error)).toEqual({ 'limits.memory': 'first', 'importClients.2': 'third' });
    expect(describeFieldErrors(settingsFieldErrors(error))).toBe('limits.memory: first; importClients.2: third');
  });

  it('keeps the schema’s own message over the fallback', () => {
    const parsed = parseSettings({ limits: { pids: 4 } });
    expect(parsed.success).toBe(false);
    expect(settingsFieldErrors(parsed.error!)).toEqual({ 'limits.pids': 'must be at least 16' });
  });
});
