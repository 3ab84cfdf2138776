// The watcher sees files added while running (and folders created later), stays quiet when nothing that
// matters changed, survives a failing listener, and stops when disposed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiscoveryWatcher, type DiscoveryWatcherOptions } from '../../../../electron/proxy/discovery/watcher.js';
import type { DiscoveryResult } from '../../../../shared/proxy.js';
import { options, put, stdio, tempHome } from './helpers.js';

const watchers: DiscoveryWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.dispose();
});

function started(home: string, overrides: Partial<DiscoveryWatcherOptions> = {}) {
  const changes: DiscoveryResult[] = [];
  const watcher = new DiscoveryWatcher({ ...options(home), onChange: (r) => changes.push(r), ...overrides });
  watchers.push(watcher);
  watcher.start();
  return { watcher, changes };
}

const names = (result: DiscoveryResult | undefined) => result?.servers.map((s) => s.name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const within2s = { timeout: 2000, interval: 25 };

describe('DiscoveryWatcher', () => {
  it('reports a file added to ~/MCPs while running', async () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    const { watcher, changes } = started(home);
    expect(names(watcher.current())).toEqual(['a']);
    put(home, 'MCPs/b.json', { mcpServers: { b: stdio('b') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['a', 'b']), within2s);
    expect(changes).toHaveLength(1);
    expect(names(watcher.current())).toEqual(['a', 'b']);
  });

  it('sees ~/MCPs created after start, and a client config in a folder that did not exist', async () => {
    const home = tempHome();
    const { changes } = started(home, { importClients: ['cursor'] });
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['a']), within2s);
    mkdirSync(path.join(home, '.cursor'));
    await sleep(400); // let the watch move down into the new folder before the file appears
    put(home, '.cursor/mcp.json', { mcpServers: { c: stdio('c') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['a', 'c']), within2s);
  });

  it('sees a file removed, and a folder deleted and made again', async () => {
    const home = tempHome();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    const { changes } = started(home);
    rmSync(path.join(home, 'MCPs'), { recursive: true });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual([]), within2s);
    put(home, 'MCPs/z.json', { mcpServers: { z: stdio('z') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['z']), within2s);
    put(home, 'MCPs/y.json', { mcpServers: { y: stdio('y') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['y', 'z']), within2s);
    // Deleted and made again within one debounce: the watch must move to the new folder.
    rmSync(path.join(home, 'MCPs'), { recursive: true });
    mkdirSync(path.join(home, 'MCPs'));
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual([]), within2s);
    put(home, 'MCPs/x.json', { mcpServers: { x: stdio('x') } });
    await vi.waitFor(() => expect(names(changes.at(-1))).toEqual(['x']), within2s);
  });

  it('does not call onChange for changes that leave the result the same', async () => {
    const home = tempHome();
    const file = put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a', { env: { A: '1', B: '2' } }) } });
    const { changes } = started(home);
    // Same servers: new formatting and env keys in another order; an unrelated file; a file in home.
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { env: { B: '2', A: '1' }, command: 'a' } } }));
    put(home, 'MCPs/readme.txt', 'hello');
    put(home, 'unrelated.json', { mcpServers: { u: stdio('u') } });
    await sleep(800);
    expect(changes).toEqual([]);
    // The watch is alive: a real change right after is reported, once.
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a2') } });
    await vi.waitFor(() => expect(changes).toHaveLength(1), within2s);
    await sleep(400);
    expect(changes.map((r) => r.servers[0]!.command)).toEqual(['a2']);
  });

  it('keeps watching after onChange throws', async () => {
    const home = tempHome();
    mkdirSync(path.join(home, 'MCPs'));
    let calls = 0;
    started(home, {
      onChange: () => {
        calls++;
        throw new Error('listener failed');
      },
    });
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    await vi.waitFor(() => expect(calls).toBe(1), within2s);
    put(home, 'MCPs/b.json', { mcpServers: { b: stdio('b') } });
    await vi.waitFor(() => expect(calls).toBe(2), within2s);
  });

  it('stops when disposed', async () => {
    const home = tempHome();
    mkdirSync(path.join(home, 'MCPs'));
    const { watcher, changes } = started(home, { rescanMs: 1000 });
    watcher.dispose();
    put(home, 'MCPs/a.json', { mcpServers: { a: stdio('a') } });
    await sleep(1500);
    expect(changes).toEqual([]);
  });
});
