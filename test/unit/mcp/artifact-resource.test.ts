// `resources/read` of a stored artifact: text types come back as text (the same bytes), binary ones and
// text that is not UTF-8 as a blob, text too large for one response is refused with its size.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { artifactContents, isTextType, readArtifact } from '../../../electron/mcp/artifact-resource.js';
import { RunOwners } from '../../../electron/mcp/run-owners.js';
import { artifactUri, MAX_RESPONSE_BYTES, type Artifact } from '../../../shared/artifacts.js';

const file = (name: string, mimeType: string, data: Uint8Array | string): Artifact => {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return { name, mimeType, size: bytes.length, source: 'file', data: bytes };
};
const uri = (name: string) => artifactUri('run-1', name);

describe('artifact contents', () => {
  it.each([
    ['out/report.csv', 'text/csv', 'region,sales\nnorth,3\n'],
    ['out/notes.md', 'text/markdown', '# Notes\n\n- ünïcödé ✓\n'],
    ['out/data.json', 'application/json', '{"a": [1, 2]}\n'],
    ['out/log.txt', 'text/plain', 'line 1\r\nline 2\u0000 with a NUL\n'],
    ['out/rows.jsonl', 'application/x-ndjson', '{"a":1}\n{"a":2}\n'],
    ['out/page.html', 'text/html', '<p>hi</p>'],
  ])('%s (%s) is text with exactly its bytes', (name, mimeType, text) => {
    const contents = artifactContents(uri(name), file(name, mimeType, text));
    expect(contents).toEqual({ uri: uri(name), mimeType, text });
    expect('blob' in contents).toBe(false);
  });

  it('keeps a byte-order mark, so the text round-trips to the same bytes', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a,b\n')]);
    const contents = artifactContents(uri('out/bom.csv'), file('out/bom.csv', 'text/csv', bytes)) as { text: string };
    expect(Buffer.from(contents.text, 'utf8').equals(bytes)).toBe(true);
  });

  it('answers a blob for binary types, and for a "text" file that is not UTF-8 (nothing is altered)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2]);
    expect(artifactContents(uri('figure-1.png'), file('figure-1.png', 'image/png', png))).toEqual({ uri: uri('figure-1.png'), mimeType: 'image/png', blob: Buffer.from(png).toString('base64') });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(artifactContents(uri('figure-2.svg'), file('figure-2.svg', 'image/svg+xml', svg))).toHaveProperty('blob');
    const latin1 = Buffer.from('caf\xe9,1\n', 'latin1');
    const contents = artifactContents(uri('out/x.csv'), file('out/x.csv', 'text/csv', latin1)) as { blob: string };
    expect(Buffer.from(contents.blob, 'base64').equals(latin1)).toBe(true);
  });

  it('refuses text too large for one response, naming its size and the bound', () => {
    const big = file('out/big.csv', 'text/csv', 'x'.repeat(MAX_RESPONSE_BYTES));
    expect(() => artifactContents(uri('out/big.csv'), big)).toThrow(McpError);
    expect(() => artifactContents(uri('out/big.csv'), big)).toThrow(/1,040,000 bytes of text, more than one response may carry \(1,040,000 bytes\)/);
    // Escaping counts: 100,000 control characters are 600,000 bytes of JSON.
    expect(() => artifactContents(uri('out/c.txt'), file('out/c.txt', 'text/plain', '\u0001'.repeat(200_000)))).toThrow(/more than one response may carry/);
    expect(artifactContents(uri('out/ok.csv'), file('out/ok.csv', 'text/csv', 'y'.repeat(900_000)))).toHaveProperty('text');
  });

  it('knows text types by their media type', () => {
    for (const t of ['text/csv', 'text/plain; charset=utf-8', 'application/json', 'application/yaml', 'application/xml', 'application/ld+json', 'application/atom+xml']) expect(isTextType(t), t).toBe(true);
    for (const t of ['image/png', 'image/svg+xml', 'application/pdf', 'application/octet-stream', 'application/zip', 'application/vnd.apache.parquet']) expect(isTextType(t), t).toBe(false);
  });

  it('reads through the store: text for a csv, null for a URI that is not an artifact', () => {
    const store = { artifact: (runId: string, name: string) => (runId === 'run-1' && name === 'out/a.csv' ? file('out/a.csv', 'text/csv', 'a\n') : null) };
    const anyone = () => true;
    expect(readArtifact(uri('out/a.csv'), store, anyone)).toEqual({ uri: uri('out/a.csv'), mimeType: 'text/csv', text: 'a\n' });
    expect(readArtifact('resource://other', store, anyone)).toBeNull();
    expect(() => readArtifact(uri('out/none.csv'), store, anyone)).toThrow(/Unknown artifact/);
  });

  it("answers another caller's run exactly like a run that does not exist, without reading the store", () => {
    const owners = new RunOwners(2);
    owners.record('run-1', 'client-token:aaa');
    const store = { artifact: vi.fn(() => file('out/a.csv', 'text/csv', 'secret\n')) };
    const asOther = () => readArtifact(uri('out/a.csv'), store, (runId) => owners.owns(runId, 'stdio:other'));
    expect(asOther).toThrow(`Unknown artifact: ${uri('out/a.csv')} (no run 'run-1' with an artifact 'out/a.csv' in the history; retention may have removed it)`);
    expect(store.artifact).not.toHaveBeenCalled();
    expect(readArtifact(uri('out/a.csv'), store, (runId) => owners.owns(runId, 'client-token:aaa'))).toMatchObject({ text: 'secret\n' });
    // Bounded: the oldest run is forgotten first (its artifacts stay in the panel's History).
    owners.record('run-2', 'x');
    owners.record('run-3', 'x');
    expect(owners.owns('run-1', 'client-token:aaa')).toBe(false);
    expect(owners.owns('run-3', 'x')).toBe(true);
  });
});
