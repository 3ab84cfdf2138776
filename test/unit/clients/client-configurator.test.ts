// Each client's real config format, in a temporary home: add, preview, remove, create, refuse, detect.
import type { DiffHunk } from '../../../shared/contract.js';
import { diffText } from '../../../electron/clients/change-diff.js';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClientId } from '../../../electron/clients/client-configurator.js';
import { AppError } from '../../../shared/errors.js';
import { BACKUP_SUFFIX, configurator, fixture, insertedText, parseAs, put, siblings, STDIO, targets, tempHome, TOKEN, URL_NOW } from './helpers.js';

interface Case {
  id: ClientId;
  /** Where the file lives under HOME on Linux. */
  relative: string;
  fixture: string;
  container: 'mcpServers' | 'servers';
  jsonc: boolean;
  transport: 'http' | 'stdio';
  entry: Record<string, unknown>;
  /** How the fixture indents a server entry. */
  indent: string;
  /** A file the client itself could not read, and where its first error is. */
  corrupt: string;
  errorAt: string;
}

const headers = { Authorization: `Bearer ${TOKEN}` };
const strictCorrupt = '{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}\n';

const CASES: Case[] = [
  {
    id: 'claude-desktop',
    relative: '.config/Claude/claude_desktop_config.json',
    fixture: 'claude-desktop.json',
    container: 'mcpServers',
    jsonc: false,
    transport: 'stdio',
    entry: { command: STDIO.command, args: ['stdio'], env: STDIO.env },
    indent: '    ',
    corrupt: strictCorrupt,
    errorAt: 'line 4, column 3',
  },
  {
    id: 'claude-code',
    relative: '.claude.json',
    fixture: 'claude-code.json',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    entry: { type: 'http', url: URL_NOW, headers },
    indent: '    ',
    corrupt: strictCorrupt,
    errorAt: 'line 4, column 3',
  },
  {
    id: 'cursor',
    relative: '.cursor/mcp.json',
    fixture: 'cursor.json',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    entry: { url: URL_NOW, headers },
    indent: '    ',
    // Comments are fine in VS Code's file, not in Cursor's.
    corrupt: '{\n  // my servers\n  "mcpServers": {}\n}\n',
    errorAt: 'line 2, column 3',
  },
  {
    id: 'vscode',
    relative: '.config/Code/User/mcp.json',
    fixture: 'vscode-mcp.json',
    container: 'servers',
    jsonc: true,
    transport: 'http',
    entry: { type: 'http', url: URL_NOW, headers },
    indent: '\t\t',
    corrupt: '{\n\t// half-saved\n\t"servers": {\n\t\t"a": {\n\t\t\t"type": "http"\n\t\t\t"url": "http://x"\n',
    errorAt: 'line 6, column 4',
  },
  {
    id: 'windsurf',
    relative: '.codeium/windsurf/mcp_config.json',
    fixture: 'windsurf.json',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    entry: { serverUrl: URL_NOW, headers },
    indent: '        ',
    corrupt: strictCorrupt,
    errorAt: 'line 4, column 3',
  },
];

/** The lines a change adds or removes, with their mark. */
const addedLines = (diff: DiffHunk[]) => diff.flatMap((h) => h.lines).filter((line) => line.startsWith('+'));
const removedLines = (diff: DiffHunk[]) => diff.flatMap((h) => h.lines).filter((line) => line.startsWith('-'));

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe.each(CASES)('$id', (c) => {
  const setup = (content: string | Buffer = fixture(c.fixture)) => {
    const home = tempHome();
    const file = put(home, c.relative, content);
    return { home, file, dir: path.dirname(file), name: path.basename(file) };
  };

  it('adds the entry in the client’s shape and leaves every other byte alone', async () => {
    const original = fixture(c.fixture);
    const { home, file, dir, name } = setup(original);
    chmodSync(file, 0o640);
    const preview = await configurator(home).preview(c.id, 'add');
    const result = await configurator(home).apply(c.id, 'add');
    expect(result).toEqual({ ...preview, backup: file + BACKUP_SUFFIX });
    expect(result).toMatchObject({ id: c.id, action: 'add', file, changed: true });

    const before = original.toString('utf8');
    const after = readFileSync(file, 'utf8');
    const parsedBefore = parseAs(before, c.jsonc);
    const parsedAfter = parseAs(after, c.jsonc);
    const servers = parsedAfter[c.container] as Record<string, unknown>;
    expect(servers.sandbar).toEqual(c.entry);
    // Without the new entry, the document is the old one: same keys, same values, same order.
    const { sandbar: _added, ...otherServers } = servers;
    expect(JSON.stringify({ ...parsedAfter, [c.container]: otherServers })).toBe(JSON.stringify(parsedBefore));
    // And textually the change is one inserted run (a comma and the entry, indented like its neighbours
    // with the file's own indent unit); nothing else moved.
    const unit = c.indent.slice(0, c.indent.length / 2);
    const block = `${c.indent}"sandbar": ${JSON.stringify(c.entry, null, unit).split('\n').join(`\n${c.indent}`)}`;
    expect(after).toContain(`,\n${block}`);
    expect(insertedText(before, after)).toHaveLength(`,\n${block}`.length);
    if (c.transport === 'http') expect(after).toContain(`"Authorization": "Bearer ${TOKEN}"`);

    // A file that now holds the client token is owner-only, and the preview said so; other edits keep the mode.
    expect(statSync(file).mode & 0o777).toBe(c.transport === 'http' ? 0o600 : 0o640);
    expect(preview.modeChange).toEqual(c.transport === 'http' ? { from: '0640', to: '0600' } : null);
    expect(readFileSync(result.backup!)).toEqual(original);
    expect(statSync(result.backup!).mode & 0o777).toBe(0o640);
    expect(siblings(dir).filter((f) => f.startsWith(name) || f.startsWith(`.${name}`))).toEqual([name, name + BACKUP_SUFFIX]);
  });

  it('previews the change without writing, showing the new lines but never the token', async () => {
    const original = fixture(c.fixture);
    const { home, file, dir } = setup(original);
    const before = siblings(dir);
    const preview = await configurator(home).preview(c.id, 'add');
    expect(preview).toMatchObject({ id: c.id, action: 'add', file, changed: true });
    expect(preview.diff[0]).toMatchObject({ oldStart: expect.any(Number), newStart: expect.any(Number) });
    const added = addedLines(preview.diff).join('\n');
    expect(added).toContain('"sandbar": {');
    if (c.transport === 'http') {
      expect(added).toContain(URL_NOW);
      expect(added).toContain('"Authorization": "Bearer ••••Zq7W"');
    } else {
      expect(added).toContain(STDIO.command);
    }
    expect(diffText(preview.diff)).not.toContain(TOKEN);
    expect(diffText(preview.diff)).not.toContain(TOKEN.slice(0, 12));
    expect(readFileSync(file)).toEqual(original);
    expect(siblings(dir)).toEqual(before);
  });

  it('removing the entry gives back the original bytes', async () => {
    const original = fixture(c.fixture);
    const { home, file } = setup(original);
    await configurator(home).apply(c.id, 'add');
    const withEntry = readFileSync(file);
    const removed = await configurator(home).apply(c.id, 'remove');
    expect(readFileSync(file)).toEqual(original);
    expect(removed).toMatchObject({ action: 'remove', changed: true, backup: `${file}${BACKUP_SUFFIX}-1` });
    expect(readFileSync(removed.backup!)).toEqual(withEntry);
    expect(removedLines(removed.diff).join('\n')).toContain('"sandbar": {');
    expect(addedLines(removed.diff).join('\n')).not.toContain('sandbar');
    expect(diffText(removed.diff)).not.toContain(TOKEN);

    const again = await configurator(home).apply(c.id, 'remove');
    expect(again).toMatchObject({ changed: false, diff: [], backup: null });
    expect(existsSync(`${file}${BACKUP_SUFFIX}-2`)).toBe(false);
  });

  it('adding again changes nothing; adding with a new endpoint replaces the stale entry', async () => {
    const { home, file } = setup();
    await configurator(home).apply(c.id, 'add');
    const once = readFileSync(file);
    const again = await configurator(home).apply(c.id, 'add');
    expect(again).toMatchObject({ changed: false, diff: [], backup: null });
    expect(readFileSync(file)).toEqual(once);

    const newToken = 'sbk_live_00000000000000000000000000000000NeW1';
    const moved = configurator(home, { targets: targets({ url: 'http://127.0.0.1:9000/mcp', token: newToken, command: '/usr/local/bin/sandbar' }) });
    const update = await moved.apply(c.id, 'add');
    expect(update.changed).toBe(true);
    expect(diffText(update.diff)).not.toContain(TOKEN);
    expect(diffText(update.diff)).not.toContain(newToken);
    const servers = parseAs(readFileSync(file, 'utf8'), c.jsonc)[c.container] as Record<string, Record<string, unknown>>;
    if (c.transport === 'http') {
      expect(JSON.stringify(servers.sandbar)).toContain('http://127.0.0.1:9000/mcp');
      expect(servers.sandbar!.headers).toEqual({ Authorization: `Bearer ${newToken}` });
    } else {
      expect(servers.sandbar!.command).toBe('/usr/local/bin/sandbar');
    }
    expect((await moved.detect()).find((s) => s.id === c.id)?.configured).toBe('yes');
  });

  it('creates a missing file and its folders', async () => {
    const home = tempHome();
    const file = path.join(home, c.relative);
    const result = await configurator(home).apply(c.id, 'add');
    expect(result).toMatchObject({ file, changed: true, backup: null });
    expect(addedLines(result.diff).join('\n')).toContain('"sandbar": {');
    expect(diffText(result.diff)).not.toContain(TOKEN);
    const text = readFileSync(file, 'utf8');
    expect(parseAs(text, c.jsonc)).toEqual({ [c.container]: { sandbar: c.entry } });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe(`${c.id === 'vscode' ? '\t' : '  '}"${c.container}": {`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Removing leaves the (now empty) server list Sandbar created: the file did not exist to restore.
    await configurator(home).apply(c.id, 'remove');
    expect(parseAs(readFileSync(file, 'utf8'), c.jsonc)).toEqual({ [c.container]: {} });
  });

  it('refuses a file the client could not read, and leaves it untouched', async () => {
    const { home, file, dir } = setup(c.corrupt);
    const before = siblings(dir);
    for (const action of ['add', 'remove'] as const) {
      for (const call of [() => configurator(home).apply(c.id, action), () => configurator(home).preview(c.id, action)]) {
        const err = await rejection(call());
        expect(err.code).toBe('invalid_config');
        expect(err.message).toContain(file);
        expect(err.message).toContain(c.errorAt);
      }
    }
    expect(readFileSync(file, 'utf8')).toBe(c.corrupt);
    expect(siblings(dir)).toEqual(before);
    const status = (await configurator(home).detect()).find((s) => s.id === c.id)!;
    expect(status).toMatchObject({ exists: true, installed: true, configured: 'no' });
    expect(status.error).toContain(c.errorAt);
  });

  it('detects whether the entry is there and points at the current endpoint', async () => {
    const { home, file } = setup();
    const find = async (options = {}) => (await configurator(home, options).detect()).find((s) => s.id === c.id)!;
    expect(await find()).toEqual({ id: c.id, label: expect.any(String), file, exists: true, installed: true, configured: 'no', transport: c.transport, error: null });
    await configurator(home).apply(c.id, 'add');
    expect((await find()).configured).toBe('yes');
    const staleness = c.transport === 'http' ? [{ token: 'another-token-0123456789' }, { url: 'http://127.0.0.1:9999/mcp' }] : [{ command: '/elsewhere/sandbar' }];
    for (const changed of staleness) expect((await find({ targets: targets(changed) })).configured).toBe('stale');
    if (c.transport === 'http') {
      // The stdio command does not matter to a client that connects over HTTP, and vice versa.
      expect((await find({ targets: targets({ command: '/elsewhere/sandbar' }) })).configured).toBe('yes');
    } else {
      expect((await find({ targets: targets({ token: 'another-token-0123456789' }) })).configured).toBe('yes');
    }
  });
});

describe('the stdio entry reaches this instance', () => {
  const relative = '.config/Claude/claude_desktop_config.json';

  it('runs an absolute command with SANDBAR_HOME in its env, and the preview says so in the diff and in words', async () => {
    const home = tempHome();
    const preview = await configurator(home).preview('claude-desktop', 'add');
    const added = addedLines(preview.diff).join('\n');
    expect(added).toContain(`"command": "${STDIO.command}"`);
    expect(added).toContain(`"SANDBAR_HOME": "${STDIO.env.SANDBAR_HOME}"`);
    expect(preview.summary).toBe(
      `Claude Desktop will start ${STDIO.command} stdio with SANDBAR_HOME=${STDIO.env.SANDBAR_HOME}, so it joins this Sandbar (the same engine, history and servers) instead of starting one of its own.`,
    );
    await configurator(home).apply('claude-desktop', 'add');
    const entry = (parseAs(readFileSync(path.join(home, relative), 'utf8'), false).mcpServers as Record<string, unknown>).sandbar;
    expect(entry).toEqual({ command: STDIO.command, args: ['stdio'], env: { SANDBAR_HOME: STDIO.env.SANDBAR_HOME } });
    expect(JSON.stringify(entry)).not.toContain('npx');
  });

  it('calls an entry without SANDBAR_HOME (or with another home) stale, and Add puts the home in', async () => {
    const home = tempHome();
    const file = put(home, relative, JSON.stringify({ mcpServers: { sandbar: { command: STDIO.command, args: ['stdio'] } } }, null, 2));
    const status = async () => (await configurator(home).detect()).find((s) => s.id === 'claude-desktop')!.configured;
    expect(await status()).toBe('stale');
    const update = await configurator(home).apply('claude-desktop', 'add');
    expect(addedLines(update.diff).join('\n')).toContain('SANDBAR_HOME');
    expect(await status()).toBe('yes');
    const other = configurator(home, { targets: { ...targets(), stdio: () => ({ ...STDIO, env: { SANDBAR_HOME: '/elsewhere' } }) } });
    expect((await other.detect()).find((s) => s.id === 'claude-desktop')!.configured).toBe('stale');
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.sandbar.env).toEqual(STDIO.env);
  });

  it('refuses to write a command that does not exist here, saying what to do, and writes nothing', async () => {
    const home = tempHome();
    const missing = configurator(home, { exists: (f) => f !== STDIO.command });
    for (const call of [() => missing.preview('claude-desktop', 'add'), () => missing.apply('claude-desktop', 'add')]) {
      const err = await rejection(call());
      expect(err.code).toBe('invalid_request');
      expect(err.message).toBe(`Claude Desktop would start ${STDIO.command}, which does not exist here. Build Sandbar first (npm run build), then add it again.`);
    }
    expect(existsSync(path.join(home, relative))).toBe(false);
    // Removing needs nothing to exist; HTTP clients launch nothing.
    expect((await missing.preview('claude-desktop', 'remove')).summary).toBe('Claude Desktop will no longer start Sandbar.');
    expect((await missing.preview('cursor', 'add')).summary).toBe(`Cursor will connect to ${URL_NOW} with Sandbar's client token.`);
    const relativeCommand = configurator(home, { targets: targets({ command: 'npx' }) });
    expect((await rejection(relativeCommand.preview('claude-desktop', 'add'))).message).toMatch(/"npx", which is not an absolute path/);
  });
});
