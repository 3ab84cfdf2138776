// Entries that would launch Sandbar (or the reference bridge) are recognised in the shapes real configs have.
import { describe, expect, it } from 'vitest';
import { mergeSources } from '../../../../electron/proxy/discovery/merge.js';
import { parseConfigDocument } from '../../../../electron/proxy/discovery/parse-config.js';
import { isOwnEndpoint, selfReference } from '../../../../electron/proxy/discovery/self-reference.js';
import type { ServerConfig } from '../../../../shared/proxy.js';

function server(name: string, entry: Record<string, unknown>): ServerConfig {
  const parsed = parseConfigDocument({ mcpServers: { [name]: entry } }, 'test').servers[0];
  if (!parsed) throw new Error(`not a valid entry: ${JSON.stringify(entry)}`);
  return parsed;
}

const SELF: [string, string, Record<string, unknown>][] = [
  ['the name sandbar, any case', 'SandBar', { command: 'whatever' }],
  ['the reference name', 'mcp_server_code_execution_mode', { command: 'python' }],
  ["Sandbar's own npx config", 'code', { command: 'npx', args: ['sandbar', 'stdio'] }],
  ['npx with a version', 'code', { command: 'npx', args: ['-y', 'sandbar@0.1.0', 'stdio'] }],
  ['the packaged macOS app', 'code', { command: '/Applications/Sandbar.app/Contents/MacOS/Sandbar', args: ['--stdio'] }],
  ['the packaged Windows app', 'code', { command: 'C:\\Program Files\\Sandbar\\Sandbar.exe', args: ['--stdio'] }],
  ['a Linux AppImage', 'code', { command: '/home/me/Apps/Sandbar-0.1.0.AppImage', args: ['--stdio'] }],
  ['a global npm install', 'code', { command: '/usr/local/bin/sandbar', args: ['stdio'] }],
  ['the CLI script of a checkout', 'code', { command: 'node', args: ['/home/me/src/Sandbar/dist/electron/cli.js', 'stdio'] }],
  ['a checkout run by electron', 'code', { command: 'electron', args: ['/home/me/src/sandbar', '--stdio'] }],
  ['the reference through uvx', 'code', { command: 'uvx', args: ['--from', 'git+https://github.com/elusznik/mcp-server-code-execution-mode', 'mcp-server-code-execution-mode', 'run'] }],
  ['the reference script', 'code', { command: 'python3', args: ['/opt/bridge/mcp_server_code_execution_mode.py'] }],
  ['the reference executable', 'code', { command: '/home/me/.local/bin/mcp-server-code-execution-mode' }],
  ['a url to the own endpoint', 'code', { url: 'http://127.0.0.1:7337/mcp' }],
  ['localhost with a trailing slash', 'code', { type: 'http', url: 'http://localhost:7337/mcp/' }],
  ['mcp-remote bridging to the own endpoint', 'code', { command: 'npx', args: ['mcp-remote', 'http://127.0.0.1:7337/mcp'] }],
];

const NOT_SELF: [string, string, Record<string, unknown>][] = [
  ['a filesystem server rooted at a folder named sandbar', 'files', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/sandbar'] }],
  ['a server binary given a sandbar folder', 'files', { command: 'mcp-server-filesystem', args: ['/home/me/sandbar'] }],
  ['a name that only contains sandbar', 'sandbar-notes', { command: 'notes' }],
  ['another port', 'other', { url: 'http://127.0.0.1:8000/mcp' }],
  ['another path on the own port', 'other', { url: 'http://127.0.0.1:7337/api' }],
  ['another host', 'other', { url: 'http://example.com:7337/mcp' }],
  ['the reference run from a checkout (not caught by the reference either)', 'bridge', { command: 'python', args: ['main.py'] }],
];

describe('selfReference', () => {
  it.each(SELF)('catches %s', (_label, name, entry) => {
    expect(selfReference(server(name, entry), 7337)).toEqual(expect.any(String));
  });

  it.each(NOT_SELF)('leaves alone %s', (_label, name, entry) => {
    expect(selfReference(server(name, entry), 7337)).toBeNull();
  });

  it('checks urls only against a known own port', () => {
    expect(isOwnEndpoint('http://127.0.0.1:7337/mcp', null)).toBe(false);
    expect(isOwnEndpoint('http://[::1]:9000/mcp', 9000)).toBe(true);
    expect(isOwnEndpoint('http://127.0.0.1/mcp', 80)).toBe(true);
  });
});

describe('self-reference in the merge', () => {
  const doc = parseConfigDocument({ mcpServers: { me: { command: 'npx', args: ['sandbar', 'stdio'] }, other: { command: 'other' } } }, '/f.json');

  it('skips self-references with reason self-reference', () => {
    const result = mergeSources([doc], { allowSelf: false, ownPort: 7337 });
    expect(result.servers.map((s) => s.name)).toEqual(['other']);
    expect(result.skipped).toEqual([{ name: 'me', source: '/f.json', reason: 'self-reference', detail: 'The argument "sandbar" starts Sandbar.' }]);
  });

  it('keeps them when the override is set', () => {
    const result = mergeSources([doc], { allowSelf: true, ownPort: 7337 });
    expect(result.servers.map((s) => s.name)).toEqual(['me', 'other']);
    expect(result.skipped).toEqual([]);
  });
});
