// Parsing one config document: both formats, entry fields, and bad entries that never abort the file.
import { describe, expect, it } from 'vitest';
import { parseConfigDocument, parseSettingsServers } from '../../../../electron/proxy/discovery/parse-config.js';

const SRC = '/home/me/MCPs/a.json';

describe('parseConfigDocument', () => {
  it('reads a stdio entry with every field', () => {
    const doc = { mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { TOKEN: 'x' }, cwd: '/srv', description: 'Files' } } };
    expect(parseConfigDocument(doc, SRC)).toEqual({
      servers: [{ name: 'fs', source: SRC, transport: 'stdio', command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { TOKEN: 'x' }, cwd: '/srv', description: 'Files' }],
      problems: [],
      skipped: [],
    });
  });

  it('stringifies args and env, and replaces ones of the wrong shape with empty values', () => {
    const doc = {
      mcpServers: {
        a: { command: 'srv', args: [5, true, null, 'x', { k: 1 }], env: { PORT: 8080, DEBUG: false, EMPTY: null } },
        b: { command: 'srv', args: 'not-a-list', env: ['not', 'an', 'object'] },
      },
    };
    const [a, b] = parseConfigDocument(doc, SRC).servers;
    expect(a).toMatchObject({ args: ['5', 'true', '', 'x', '{"k":1}'], env: { PORT: '8080', DEBUG: 'false', EMPTY: '' } });
    expect(b).toMatchObject({ args: [], env: {} });
  });

  it('uses the file description as the default for each server, and "" without one', () => {
    const doc = { description: 'From the file', mcpServers: { a: { command: 'a' }, b: { command: 'b', description: 'Own' } } };
    expect(parseConfigDocument(doc, SRC).servers.map((s) => s.description)).toEqual(['From the file', 'Own']);
    expect(parseConfigDocument({ mcpServers: { a: { command: 'a' } } }, SRC).servers[0]!.description).toBe('');
  });

  it("reads VS Code's servers key, after mcpServers even when it comes first in the file", () => {
    const doc = { servers: { vs: { type: 'stdio', command: 'vs' } }, mcpServers: { classic: { command: 'c' } } };
    expect(parseConfigDocument(doc, SRC).servers.map((s) => s.name)).toEqual(['classic', 'vs']);
  });

  it('skips a server whose name is outside the safe charset, saying why, with the name shown sanitised', () => {
    const doc = { mcpServers: { 'ok_name.v2-x': { command: 'a' }, 'evil\u001b]0;x\u0007 \u202ename': { command: 'b' } } };
    const result = parseConfigDocument(doc, SRC);
    expect(result.servers.map((s) => s.name)).toEqual(['ok_name.v2-x']);
    expect(result.skipped).toEqual([{ name: 'evil name', source: SRC, reason: 'invalid', detail: expect.stringContaining('server names are 1 to 64 characters of A-Z') }]);
  });

  it('skips disabled entries with reason disabled', () => {
    const doc = { mcpServers: { off: { command: 'x', disabled: true }, on: { command: 'y', disabled: false } } };
    const result = parseConfigDocument(doc, SRC);
    expect(result.servers.map((s) => s.name)).toEqual(['on']);
    expect(result.skipped).toEqual([{ name: 'off', source: SRC, reason: 'disabled' }]);
  });

  it('reads remote servers given by url, with headers, and refuses SSE', () => {
    const doc = {
      mcpServers: {
        plain: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t', 'X-Num': 3 } },
        typed: { type: 'http', url: 'http://localhost:9000/mcp' },
        streamable: { type: 'streamable-http', url: 'https://x.test/mcp' },
        windsurf: { serverUrl: 'https://w.test/mcp' },
        old: { type: 'sse', url: 'https://x.test/sse' },
        ftp: { url: 'ftp://x.test/mcp' },
        nourl: { type: 'http', command: 'x' },
      },
    };
    const result = parseConfigDocument(doc, SRC);
    expect(result.servers[0]).toEqual({
      name: 'plain', source: SRC, transport: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t', 'X-Num': '3' }, args: [], env: {}, description: '',
    });
    expect(result.servers.map((s) => [s.name, s.transport, s.url])).toEqual([
      ['plain', 'http', 'https://example.com/mcp'],
      ['typed', 'http', 'http://localhost:9000/mcp'],
      ['streamable', 'http', 'https://x.test/mcp'],
      ['windsurf', 'http', 'https://w.test/mcp'],
    ]);
    expect(result.skipped.map((s) => [s.name, s.reason])).toEqual([['old', 'invalid'], ['ftp', 'invalid'], ['nourl', 'invalid']]);
    expect(result.skipped[0]!.detail).toMatch(/SSE/);
  });

  it('skips an entry that is not an object without losing the rest of the file', () => {
    const doc = { mcpServers: { text: 'oops', list: [1], nothing: null, good: { command: 'ok' } } };
    const result = parseConfigDocument(doc, SRC);
    expect(result.servers.map((s) => s.name)).toEqual(['good']);
    expect(result.skipped.map((s) => [s.name, s.reason])).toEqual([['text', 'invalid'], ['list', 'invalid'], ['nothing', 'invalid']]);
    expect(result.skipped[1]!.detail).toBe('The entry is a list, not an object.');
    expect(result.problems).toEqual([]);
  });

  it('skips an entry with neither command nor url, saying so', () => {
    const result = parseConfigDocument({ mcpServers: { empty: { args: ['x'] }, blank: { command: '  ' } } }, SRC);
    expect(result.servers).toEqual([]);
    expect(result.skipped).toEqual([
      { name: 'empty', source: SRC, reason: 'invalid', detail: 'The entry has neither a "command" nor a "url".' },
      { name: 'blank', source: SRC, reason: 'invalid', detail: 'The entry has neither a "command" nor a "url".' },
    ]);
  });

  it('reports a top level that is not an object as a problem of that source', () => {
    for (const doc of [[{ command: 'x' }], 'text', null, 3]) {
      const result = parseConfigDocument(doc, SRC);
      expect(result.servers).toEqual([]);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]!.source).toBe(SRC);
    }
    expect(parseConfigDocument([], SRC).problems[0]!.message).toBe('The file holds a list, not an object with "mcpServers".');
  });

  it('reports a server table of the wrong shape and still reads the other key', () => {
    const result = parseConfigDocument({ mcpServers: ['x'], servers: { ok: { command: 'ok' } } }, SRC);
    expect(result.servers.map((s) => s.name)).toEqual(['ok']);
    expect(result.problems).toEqual([{ source: SRC, message: '"mcpServers" is a list, not an object; its servers were skipped.' }]);
  });

  it("reads Claude Code's per-project servers only when asked, running them in their project folder", () => {
    const doc = {
      mcpServers: { user: { command: 'u' } },
      projects: { '/home/me/app': { mcpServers: { local: { command: 'l' }, pinned: { command: 'p', cwd: '/elsewhere' } } }, '/x': { other: 1 } },
    };
    expect(parseConfigDocument(doc, SRC).servers.map((s) => s.name)).toEqual(['user']);
    const servers = parseConfigDocument(doc, SRC, { claudeProjects: true }).servers;
    expect(servers.map((s) => [s.name, s.cwd])).toEqual([['user', undefined], ['local', '/home/me/app'], ['pinned', '/elsewhere']]);
  });
});

describe('parseSettingsServers', () => {
  it('reads panel entries with the file format rules, labelled settings', () => {
    const result = parseSettingsServers([{ name: 'a', entry: { command: 'a', args: [1] } }, { name: 'b', entry: 'bad' }], 'settings');
    expect(result.servers).toMatchObject([{ name: 'a', source: 'settings', args: ['1'] }]);
    expect(result.skipped).toMatchObject([{ name: 'b', source: 'settings', reason: 'invalid' }]);
  });
});
