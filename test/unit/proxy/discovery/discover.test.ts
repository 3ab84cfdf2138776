// Discovery over real files: precedence between sources, bad files that never hide good ones, client imports.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverServers } from '../../../../electron/proxy/discovery/discover.js';
import { options, put, stdio, tempHome } from './helpers.js';

const names = (home: string, overrides = {}) => discoverServers(options(home, overrides)).servers.map((s) => `${s.name}@${path.relative(home, s.source) || s.source}`);

describe('discoverServers: ~/MCPs', () => {
  it('records a malformed file as a problem and still discovers the others', () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    const bad = put(home, 'MCPs/b.json', '{"mcpServers": {"b": {"command": "b"},}}');
    const list = put(home, 'MCPs/c.json', [{ command: 'c' }]);
    put(home, 'MCPs/d.json', { mcpServers: { d: stdio('d') } });
    const result = discoverServers(options(home));
    expect(result.servers.map((s) => s.name)).toEqual(['a', 'd']);
    expect(result.problems).toEqual([
      { source: bad, message: expect.stringMatching(/^Not valid JSON: .+/) },
      { source: list, message: 'The file holds a list, not an object with "mcpServers".' },
    ]);
  });

  it('reads only *.json directly inside ~/MCPs; an empty file defines nothing', () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    put(home, 'MCPs/notes.txt', { mcpServers: { txt: stdio('t') } });
    put(home, 'MCPs/codex.toml', 'x = 1');
    put(home, 'MCPs/nested/deep.json', { mcpServers: { deep: stdio('d') } });
    put(home, 'MCPs/empty.json', '  \n');
    expect(discoverServers(options(home))).toEqual({ servers: [expect.objectContaining({ name: 'a' })], problems: [], skipped: [] });
  });

  it('finds nothing, and no problem, without ~/MCPs', () => {
    expect(discoverServers(options(tempHome()))).toEqual({ servers: [], problems: [], skipped: [] });
  });
});

describe('discoverServers: precedence', () => {
  it('settings > ~/MCPs by file name > MCP_SERVERS_CONFIG > client imports, reporting duplicates', () => {
    const home = tempHome();
    // Written in reverse order so directory order cannot stand in for sorting.
    put(home, 'MCPs/b.json', { mcpServers: { y: stdio('b-y'), z: stdio('b-z') } });
    put(home, 'MCPs/a.json', { mcpServers: { x: stdio('a-x'), y: stdio('a-y') } });
    const env = { MCP_SERVERS_CONFIG: put(home, 'conf/servers.json', { mcpServers: { z: stdio('e-z'), w: stdio('e-w') } }) };
    put(home, '.cursor/mcp.json', { mcpServers: { w: stdio('c-w'), v: stdio('c-v') } });
    const result = discoverServers(options(home, { env, importClients: ['cursor'], settingsServers: [{ name: 'x', entry: stdio('s-x') }] }));
    expect(result.servers.map((s) => `${s.name}=${s.command}`)).toEqual(['x=s-x', 'y=a-y', 'z=b-z', 'w=e-w', 'v=c-v']);
    expect(result.servers[0]!.source).toBe('settings');
    expect(result.skipped.map((s) => `${s.name}@${path.relative(home, s.source)} ${s.reason}: ${s.detail}`)).toEqual([
      `x@MCPs/a.json duplicate: Already defined in settings.`,
      `y@MCPs/b.json duplicate: Already defined in ${path.join(home, 'MCPs/a.json')}.`,
      `z@conf/servers.json duplicate: Already defined in ${path.join(home, 'MCPs/b.json')}.`,
      `w@.cursor/mcp.json duplicate: Already defined in ${path.join(home, 'conf/servers.json')}.`,
    ]);
  });

  it('orders ~/MCPs files by name, not by directory order', () => {
    const home = tempHome();
    const files = ['k', 'b', 'x', 'a', 'q', 'd', 'm', 'z', 'c', 'p', 'f', 'y'].map((n) => `${n}.json`);
    for (const file of files) put(home, `MCPs/${file}`, { mcpServers: { [file]: stdio(file), shared: stdio(file) } });
    const result = discoverServers(options(home));
    const sorted = [...files].sort();
    expect(result.servers.map((s) => s.name)).toEqual([sorted[0], 'shared', ...sorted.slice(1)]);
    expect(result.servers[1]!.command).toBe('a.json');
  });

  it('lets a working definition load when the earlier one was skipped', () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { x: { command: 'off', disabled: true } } });
    put(home, 'MCPs/b.json', { mcpServers: { x: stdio('on') } });
    expect(discoverServers(options(home)).servers.map((s) => s.command)).toEqual(['on']);
  });
});

describe('discoverServers: MCP_SERVERS_CONFIG', () => {
  it('reports TOML as unsupported, a missing file and a folder as problems', () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    const toml = put(home, 'codex.toml', '[mcp_servers.x]\ncommand = "x"\n');
    const problem = (file: string) => discoverServers(options(home, { env: { MCP_SERVERS_CONFIG: file } }));
    expect(problem(toml).problems).toEqual([{ source: toml, message: expect.stringContaining('TOML is not supported') }]);
    expect(problem(toml).servers.map((s) => s.name)).toEqual(['a']);
    expect(problem(path.join(home, 'gone.json')).problems).toEqual([{ source: path.join(home, 'gone.json'), message: 'File not found.' }]);
    mkdirSync(path.join(home, 'dir.json'));
    expect(problem(path.join(home, 'dir.json')).problems).toEqual([{ source: path.join(home, 'dir.json'), message: 'It is a folder, not a file.' }]);
  });

  it('expands ~ to the home folder', () => {
    const home = tempHome();
    put(home, 'cfg/servers.json', { mcpServers: { a: stdio('a') } });
    expect(names(home, { env: { MCP_SERVERS_CONFIG: '~/cfg/servers.json' } })).toEqual(['a@cfg/servers.json']);
  });
});

describe('discoverServers: client imports', () => {
  function clientHome(): string {
    const home = tempHome();
    put(home, '.cursor/mcp.json', { mcpServers: { cursor: stdio('c') } });
    put(home, '.config/Claude/claude_desktop_config.json', { mcpServers: { desktop: stdio('d') } });
    put(home, '.claude.json', { numStartups: 3, mcpServers: { code: stdio('u') }, projects: { '/work/app': { mcpServers: { local: stdio('l') } } } });
    put(home, '.codeium/windsurf/mcp_config.json', { mcpServers: { surf: { serverUrl: 'https://s.test/mcp' } } });
    put(home, '.config/Code/User/mcp.json', '{\n  // VS Code allows comments\n  "servers": { "vs": { "type": "stdio", "command": "v", }, },\n  "inputs": []\n}');
    put(home, '.config/Code/User/settings.json', '{ "editor.fontSize": 14, /* legacy */ "mcp": { "servers": { "legacy": { "command": "l" } } } }');
    return home;
  }

  it('imports nothing unless the client is enabled', () => {
    expect(discoverServers(options(clientHome()))).toEqual({ servers: [], problems: [], skipped: [] });
    expect(names(clientHome(), { importClients: ['cursor'] })).toEqual(['cursor@.cursor/mcp.json']);
  });

  it('imports every supported client at its real path', () => {
    const home = clientHome();
    const result = discoverServers(options(home, { importClients: ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'] }));
    expect(result.problems).toEqual([]);
    expect(result.servers.map((s) => `${s.name}@${path.relative(home, s.source)}`)).toEqual([
      'desktop@.config/Claude/claude_desktop_config.json',
      'code@.claude.json',
      'local@.claude.json',
      'cursor@.cursor/mcp.json',
      'vs@.config/Code/User/mcp.json',
      'legacy@.config/Code/User/settings.json',
      'surf@.codeium/windsurf/mcp_config.json',
    ]);
    expect(result.servers.find((s) => s.name === 'local')!.cwd).toBe('/work/app');
  });

  it('keeps comments strict outside VS Code: a commented Cursor file is a problem', () => {
    const home = tempHome();
    const file = put(home, '.cursor/mcp.json', '{ // no\n "mcpServers": {} }');
    expect(discoverServers(options(home, { importClients: ['cursor'] })).problems).toEqual([{ source: file, message: expect.stringMatching(/^Not valid JSON/) }]);
  });
});

describe('discoverServers: self-reference', () => {
  it('skips Sandbar written by its own "add to client" feature, unless allowed', () => {
    const home = tempHome();
    put(home, '.claude.json', { mcpServers: { sandbar: { type: 'http', url: 'http://127.0.0.1:7337/mcp' }, code: { command: 'npx', args: ['sandbar', 'stdio'] } } });
    put(home, 'MCPs/a.json', { mcpServers: { app: { command: '/Applications/Sandbar.app/Contents/MacOS/Sandbar', args: ['--stdio'] }, ok: stdio('ok') } });
    const result = discoverServers(options(home, { importClients: ['claude-code'] }));
    expect(result.servers.map((s) => s.name)).toEqual(['ok']);
    expect(result.skipped.map((s) => `${s.name} ${s.reason}`)).toEqual(['app self-reference', 'sandbar self-reference', 'code self-reference']);
    expect(discoverServers(options(home, { importClients: ['claude-code'], allowSelf: true })).servers.map((s) => s.name)).toEqual(['app', 'ok', 'sandbar', 'code']);
  });
});
