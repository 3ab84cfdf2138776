// Figures, displays and files through MCP with the official SDK client over stdio (the real CLI, its own
// history) and Streamable HTTP (an engine and a history store in this process), real containers: image
// blocks, links, `resources/read` of the same bytes, the size bound, and a plain result unchanged.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/history/history-store.js';
import { STRUCTURED_META_KEY } from '../../../electron/mcp/result-format.js';
import { RunOwners } from '../../../electron/mcp/run-owners.js';
import { createMcpServer } from '../../../electron/mcp/server-factory.js';
import { readImageHeader } from '../../../electron/sandbox/run/image-header.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { artifactUri, MAX_RESPONSE_BYTES, parseArtifactUri } from '../../../shared/artifacts.js';
import { sandbox, startEngine } from '../helpers.js';
import { httpFixture, quietLog, serverDeps, stdioClient, tempHome, type HttpFixture } from './mcp-helpers.js';

type Block = CallToolResult['content'][number];
type Image = Extract<Block, { type: 'image' }>;
type Link = Extract<Block, { type: 'resource_link' }>;

async function readText(client: Client, uri: string): Promise<{ mimeType: string | undefined; text: string }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [c] = contents;
  expect(c!.uri).toBe(uri);
  expect(c).not.toHaveProperty('blob');
  return { mimeType: c!.mimeType, text: (c as { text: string }).text };
}

const call = (client: Client, code: string) => client.callTool({ name: 'run_python', arguments: { code, timeout: 60 } }) as Promise<CallToolResult>;
const images = (r: CallToolResult) => r.content.filter((c): c is Image => c.type === 'image');
const links = (r: CallToolResult) => r.content.filter((c): c is Link => c.type === 'resource_link');
const texts = (r: CallToolResult) => r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readBlob(client: Client, uri: string): Promise<{ mimeType: string | undefined; bytes: Buffer }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [c] = contents;
  expect(c!.uri).toBe(uri);
  expect('blob' in c!).toBe(true);
  return { mimeType: c!.mimeType, bytes: Buffer.from((c as { blob: string }).blob, 'base64') };
}

const SALES = `
import matplotlib.pyplot as plt
plt.plot([1, 2])
plt.title('Sales')
plt.show()
print('shown')
`;

const TWELVE = `
import matplotlib.pyplot as plt
for i in range(12):
    plt.figure(figsize=(4, 3))
    plt.plot([0, i])
    plt.title(f'F{i + 1}')
    plt.show()
`;

describe.skipIf(!sandbox.available)('figures and files over MCP', () => {
  let engine: Engine;
  let http: HttpFixture;
  let history: HistoryStore;
  let historyHome: string;
  const clients: Record<string, Client> = {};

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2 });
    historyHome = tempHome();
    history = new HistoryStore({ file: path.join(historyHome, 'history.db'), logger: quietLog });
    await history.start();
    engine.subscribe((e) => history.record(e));
    http = await httpFixture(engine, {}, { artifacts: history });
    [clients.stdio, clients.http] = await Promise.all([stdioClient(), http.client()]);
  });

  afterAll(async () => {
    await Promise.allSettled(Object.values(clients).map((c) => c.close()));
    await http?.close();
    await engine?.dispose();
    history?.dispose();
    if (historyHome) rmSync(historyHome, { recursive: true, force: true });
  });

  describe.each(['stdio', 'http'])('over %s', (transport) => {
    const client = () => clients[transport]!;

    it('plt.show() comes back as an image block after the text and its line, with no structuredContent', async () => {
      const r = await call(client(), SALES);
      expect(r.isError).toBe(false);
      expect(r.content.map((c) => c.type)).toEqual(['text', 'text', 'image']);
      expect(texts(r)[0]).toBe('shown');
      const [image] = images(r);
      expect(image!.mimeType).toBe('image/png');
      const bytes = Buffer.from(image!.data, 'base64');
      const header = readImageHeader(bytes);
      expect(header).toMatchObject({ ok: true, mimeType: 'image/png' });
      const { width, height } = header as { width: number; height: number };
      expect(texts(r)[1]).toBe(`figure 1: 'Sales', ${width}×${height}`);
      expect(r).not.toHaveProperty('structuredContent');
      expect(r._meta?.[STRUCTURED_META_KEY]).toMatchObject({ stdout: ['shown'], exitReason: 'success' });
    });

    it('12 figures: 8 inline images and 4 resource_links, and resources/read returns the same bytes (sha256)', async () => {
      const r = await call(client(), TWELVE);
      expect(r.isError).toBe(false);
      expect(images(r)).toHaveLength(8);
      expect(links(r).map((l) => l.name)).toEqual(['figure-9.png', 'figure-10.png', 'figure-11.png', 'figure-12.png']);
      expect(r).not.toHaveProperty('structuredContent');
      const runId = parseArtifactUri(links(r)[0]!.uri)!.runId;
      for (const link of links(r)) {
        expect(link).toMatchObject({ mimeType: 'image/png', uri: artifactUri(runId, link.name) });
        const read = await readBlob(client(), link.uri);
        expect(read.mimeType).toBe('image/png');
        expect(read.bytes.length).toBe(link.size);
        expect(readImageHeader(read.bytes)).toMatchObject({ ok: true, mimeType: 'image/png' });
      }
      // The inline ones are stored too, byte for byte.
      for (const [i, image] of images(r).entries()) {
        const read = await readBlob(client(), artifactUri(runId, `figure-${i + 1}.png`));
        expect(sha(read.bytes)).toBe(sha(Buffer.from(image.data, 'base64')));
      }
      const lines = texts(r)[1]!.split('\n');
      expect(lines).toHaveLength(12);
      expect(lines[0]).toMatch(/^figure 1: 'F1', \d+×\d+$/);
      expect(lines[11]).toMatch(/^figure 12: 'F12', \d+×\d+ \(linked as figure-12\.png\)$/);
    });

    it('files written to /workspace/out are resource_links; resources/read answers text files as text, binary ones as a blob, with their exact bytes', async () => {
      const r = await call(client(), `
import os
os.makedirs('/workspace/out', exist_ok=True)
with open('/workspace/out/report.csv', 'w') as f:
    f.write('region,sales\\nnorth,3\\nsouth,5\\n')
with open('/workspace/out/notes.md', 'w', encoding='utf-8') as f:
    f.write('# Notes\\n\\n- café ✓\\n')
with open('/workspace/out/data.bin', 'wb') as f:
    f.write(bytes(range(256)))
with open('/workspace/out/summary.json', 'w') as f:
    f.write('{"north": 3, "south": 5}\\n')
with open('/workspace/out/log.txt', 'w') as f:
    f.write('ok\\n')
print('written')
`);
      expect(r.isError).toBe(false);
      expect(images(r)).toHaveLength(0);
      const byName = new Map(links(r).map((l) => [l.name, l]));
      expect(byName.get('out/report.csv')).toMatchObject({ type: 'resource_link', mimeType: 'text/csv', size: 29 });
      expect(await readText(client(), byName.get('out/report.csv')!.uri)).toEqual({ mimeType: 'text/csv', text: 'region,sales\nnorth,3\nsouth,5\n' });
      expect(await readText(client(), byName.get('out/notes.md')!.uri)).toEqual({ mimeType: 'text/markdown', text: '# Notes\n\n- café ✓\n' });
      expect(await readText(client(), byName.get('out/summary.json')!.uri)).toEqual({ mimeType: 'application/json', text: '{"north": 3, "south": 5}\n' });
      expect(await readText(client(), byName.get('out/log.txt')!.uri)).toEqual({ mimeType: 'text/plain', text: 'ok\n' });
      const binary = await readBlob(client(), byName.get('out/data.bin')!.uri);
      expect(binary.mimeType).toBe('application/octet-stream');
      expect(binary.bytes.equals(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(true);
      expect(r).not.toHaveProperty('structuredContent');
    });

    it('keeps a response with eight large images under 1,040,000 bytes: the largest become links', async () => {
      // Eight 300×300 noise images, about 270 KB of PNG each (2.2 MB together): under the 350 KB cap, far
      // over the response bound together.
      const r = await call(client(), `
import numpy as np
from PIL import Image
rng = np.random.default_rng(7)
for i in range(8):
    display(Image.fromarray(rng.integers(0, 255, (300, 300, 3), dtype=np.uint8)))
`);
      expect(r.isError, texts(r).join('\n')).toBe(false);
      expect(images(r).length + links(r).length).toBe(8);
      expect(links(r).length).toBeGreaterThan(0);
      expect(images(r).length).toBeGreaterThan(0);
      expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 99, result: r }))).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      // What became a link is at least as large as anything left inline.
      const smallestLinked = Math.min(...links(r).map((l) => l.size!));
      const largestInline = Math.max(...images(r).map((i) => Buffer.from(i.data, 'base64').length));
      expect(smallestLinked).toBeGreaterThanOrEqual(largestInline);
      expect(r).not.toHaveProperty('structuredContent');
    });

    it('keeps a plain result with 900 KB of output under the bound with its text whole (the structured copy of the output goes)', async () => {
      const r = await call(client(), "print('line of output ' * 60000)");
      expect(r.isError).toBe(false);
      expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 99, result: r }))).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      expect(texts(r)[0]).toBe('line of output '.repeat(60000));
      expect(r.structuredContent).toMatchObject({ outputInText: true, exitReason: 'success' });
    });

    it('print(1) is exactly the plain result it always was', async () => {
      const r = await call(client(), 'print(1)');
      const { durationMs, ...rest } = r.structuredContent as Record<string, unknown>;
      expect(typeof durationMs).toBe('number');
      expect(r.content).toEqual([{ type: 'text', text: '1' }]);
      expect(rest).toEqual({ stdout: ['1'], exitReason: 'success' });
      expect(r.isError).toBe(false);
      expect(r._meta).toBeUndefined();
    });

    it('lists the artifact template, and refuses an unknown run or name with a clear error', async () => {
      const { resourceTemplates } = await client().listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['sandbar://runs/{runId}/artifacts/{name}']);
      const unknownRun = client().readResource({ uri: artifactUri('no-such-run', 'figure-1.png') });
      await expect(unknownRun).rejects.toBeInstanceOf(McpError);
      await expect(unknownRun).rejects.toThrow(/Unknown artifact: sandbar:\/\/runs\/no-such-run\/artifacts\/figure-1\.png/);
      // A figure and an out/ file: the file's link names the run (the file is text, the figure a blob).
      const r = await call(client(), `import os\nos.makedirs('/workspace/out', exist_ok=True)\nopen('/workspace/out/id.txt', 'w').write('x')\n${SALES}`);
      const runId = parseArtifactUri(links(r)[0]!.uri)!.runId;
      expect((await readBlob(client(), artifactUri(runId, 'figure-1.png'))).bytes.toString('base64')).toBe(images(r)[0]!.data);
      await expect(client().readResource({ uri: artifactUri(runId, 'figure-2.png') })).rejects.toThrow(/no run '.+' with an artifact 'figure-2.png'/);
      await expect(client().readResource({ uri: 'sandbar://runs/x' })).rejects.toThrow(/Unknown resource: sandbar:\/\/runs\/x/);
    });
  });

  it("serves a run's artifacts only to the caller that made it: another stdio connection or client token gets 'unknown artifact'", async () => {
    const owners = new RunOwners();
    // Two stdio connections to one instance (in-process: each server is a connection, caller.ts).
    const stdioPeer = async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(serverDeps(engine, 'stdio', {}, { artifacts: history, owners })).connect(serverSide);
      const c = new Client({ name: 'peer', version: '1' });
      await c.connect(clientSide);
      return c;
    };
    const [mine, other] = await Promise.all([stdioPeer(), stdioPeer()]);
    let token = '';
    const shared = await httpFixture(engine, {}, { artifacts: history, owners }, { token: () => token });
    token = shared.token;
    const withToken = async (t: string) => {
      const c = new Client({ name: 'other-token', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(shared.url), { requestInit: { headers: { Authorization: `Bearer ${t}` } } }));
      return c;
    };
    try {
      // The out/ file's link names the run; its figure is the artifact read.
      const uriOf = (r: CallToolResult) => artifactUri(parseArtifactUri(links(r)[0]!.uri)!.runId, 'figure-1.png');
      const stdioRun = await call(mine, `import os\nos.makedirs('/workspace/out', exist_ok=True)\nopen('/workspace/out/id.txt', 'w').write('x')\n${SALES}`);
      const stdioUri = uriOf(stdioRun);
      expect((await readBlob(mine, stdioUri)).bytes.toString('base64')).toBe(images(stdioRun)[0]!.data);
      await expect(other.readResource({ uri: stdioUri })).rejects.toThrow(/Unknown artifact: .*no run '.+' with an artifact 'figure-1.png'/);
      const httpOwner = await shared.client();
      await expect(httpOwner.readResource({ uri: stdioUri })).rejects.toThrow(/Unknown artifact/);

      const httpRun = await call(httpOwner, `import os\nos.makedirs('/workspace/out', exist_ok=True)\nopen('/workspace/out/id.txt', 'w').write('x')\n${SALES}`);
      const httpUri = uriOf(httpRun);
      // The same token in a new session is the same caller; a rotated token is another one.
      expect((await readBlob(await shared.client(), httpUri)).bytes.toString('base64')).toBe(images(httpRun)[0]!.data);
      await expect(mine.readResource({ uri: httpUri })).rejects.toThrow(/Unknown artifact/);
      token = 'b'.repeat(43);
      const rotated = await withToken(token);
      await expect(rotated.readResource({ uri: httpUri })).rejects.toThrow(/Unknown artifact/);
      await rotated.close();
    } finally {
      await Promise.allSettled([mine.close(), other.close(), shared.close()]);
    }
  });
});
