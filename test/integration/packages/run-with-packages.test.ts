// run_python with `packages` through the real CLI over stdio (SDK client), on a real runtime: the code
// imports what it asked for, a second run reuses the layer without touching the index, the run container
// still has no network and cannot write the layer, and every refusal says why.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { quietLog, stdioClient, tempHome } from '../mcp/mcp-helpers.js';
import path from 'node:path';
import { HISTORY_FILE, HistoryStore } from '../../../electron/history/history-store.js';
import { buildWheel, FixtureIndex, hostPipWheel } from './package-fixtures.js';

const pip = hostPipWheel();

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

describe.skipIf(!sandbox.available || !pip)('run_python with packages', () => {
  const index = new FixtureIndex();
  let client: Client;
  const home = tempHome();

  beforeAll(async () => {
    index.add('pip', pip!);
    index.add('tinydep', await buildWheel('tinydep', '1.0', { 'tinydep.py': 'VALUE = 41\n' }));
    index.add('tinypkg', await buildWheel('tinypkg', '2.0', { 'tinypkg.py': 'import tinydep\ndef answer():\n    return tinydep.VALUE + 1\n' }, ['tinydep']));
    index.add('tampered', { ...(await buildWheel('tampered', '1.0', { 'tampered.py': 'X = 1\n' })), wrongHash: true });
    index.add('srconly', { filename: 'srconly-1.0.tar.gz', data: Buffer.from('not a wheel') });
    index.add('sharedset', await buildWheel('sharedset', '1.0', { 'sharedset.py': 'OK = True\n' }));
    await index.start();
    client = await stdioClient({ SANDBAR_PACKAGE_INDEX: index.url, SANDBAR_HOME: home });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await index.stop();
  });

  it('installs a package and its dependency; the second run reuses the layer and asks the index nothing', async () => {
    const first = await client.callTool({ name: 'run_python', arguments: { code: 'import tinypkg\nprint(tinypkg.answer())', packages: ['tinypkg'] } });
    expect(text(first), text(first)).toBe('42');
    const requests = index.requests.length;
    const second = await client.callTool({ name: 'run_python', arguments: { code: 'import tinypkg\nprint(tinypkg.answer())', packages: ['tinypkg'] } });
    expect(text(second)).toBe('42');
    expect(index.requests.length).toBe(requests);
    // History keeps what each run asked for and what was fetched for it.
    const history = new HistoryStore({ file: path.join(home, HISTORY_FILE), logger: quietLog });
    await history.start();
    try {
      const runs = history.list({}).items.filter((r) => r.codePreview.includes('tinypkg')).map((r) => history.get(r.id)!);
      const [older, newer] = runs.sort((a, b) => a.queuedAt - b.queuedAt);
      expect(older!.packages).toMatchObject({ requirements: ['tinypkg'], reused: false, layer: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(older!.packages!.fetches.filter((f) => f.kind === 'file' && f.status === 'ok').map((f) => f.url.split('/').pop()).sort()).toEqual(
        [pip!.filename, 'tinydep-1.0-py3-none-any.whl', 'tinypkg-2.0-py3-none-any.whl'],
      );
      expect(newer!.packages).toEqual({ requirements: ['tinypkg'], reused: true, layer: older!.packages!.layer, fetches: [] });
    } finally {
      history.dispose();
    }
    // A run without packages does not see them.
    const plain = await client.callTool({ name: 'run_python', arguments: { code: 'import tinypkg' } });
    expect(plain.isError).toBe(true);
    expect(text(plain)).toContain("No module named 'tinypkg'");
  }, 240_000);

  it('keeps the run container offline and the layer read-only', async () => {
    const port = new URL(index.url).port;
    const code = [
      'import os, socket, tinypkg',
      'print(sorted(os.listdir("/sys/class/net")))',
      'try:',
      `    socket.create_connection(("127.0.0.1", ${port}), timeout=2); print("reached")`,
      'except OSError as e:',
      '    print("unreachable")',
      'try:',
      '    open(os.path.join(os.path.dirname(tinypkg.__file__), "x.py"), "w"); print("wrote")',
      'except OSError as e:',
      '    print("read-only", e.errno)',
    ].join('\n');
    const result = await client.callTool({ name: 'run_python', arguments: { code, packages: ['tinypkg'] } });
    expect(text(result).split('\n')).toEqual(["['lo']", 'unreachable', 'read-only 30']);
  }, 240_000);

  it('refuses a wheel whose bytes do not match the index hash, naming the file and both hashes', async () => {
    const result = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', packages: ['tampered'] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/hash mismatch for tampered-1\.0-py3-none-any\.whl: the index says sha256 0{64}, the file has [0-9a-f]{64}/);
  }, 240_000);

  it('refuses a project with source distributions only, saying it needs a wheel', async () => {
    const result = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', packages: ['srconly'] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('wheel');
    expect(index.downloads()).not.toContain('/files/srconly-1.0.tar.gz');
  }, 240_000);

  it('says when a project does not exist, and refuses a requirement that is not one', async () => {
    const missing = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', packages: ['no-such-project'] } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('no project named no-such-project');
    const hostile = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', packages: ['--index-url=http://evil/'] } });
    expect(hostile.isError).toBe(true);
    expect(text(hostile)).toContain('is not a requirement Sandbar accepts');
  }, 240_000);

  it('builds a new set once when two runs ask for it at the same time', async () => {
    const call = () => client.callTool({ name: 'run_python', arguments: { code: 'import sharedset\nprint(sharedset.OK)', packages: ['sharedset'] } });
    const [a, b] = await Promise.all([call(), call()]);
    expect([text(a), text(b)]).toEqual(['True', 'True']);
    expect(index.downloads().filter((d) => d.includes('sharedset'))).toHaveLength(1);
    expect(index.requests.filter((r) => r === '/simple/sharedset/')).toHaveLength(1);
  }, 240_000);
});
