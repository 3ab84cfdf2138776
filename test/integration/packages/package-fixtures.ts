// A PEP 503 index on 127.0.0.1 serving wheels the tests build (no internet here), plus pip's own wheel from
// the host's Debian package. Every request is counted so tests can see what was (not) downloaded.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import JSZip from 'jszip';
import { isStrictCi } from '../../ci-mode.js';

export interface FixtureFile {
  filename: string;
  data: Buffer;
  /** Served with a wrong #sha256 (a tampered file). */
  wrongHash?: boolean;
}

/** A pure-Python wheel: `module.py` with `source`, and METADATA / WHEEL / RECORD as pip expects. */
export async function buildWheel(name: string, version: string, files: Record<string, string>, requires: string[] = []): Promise<FixtureFile> {
  const dist = `${name.replace(/-/g, '_')}-${version}`;
  const zip = new JSZip();
  for (const [file, source] of Object.entries(files)) zip.file(file, source);
  const meta = [`Metadata-Version: 2.1`, `Name: ${name}`, `Version: ${version}`, ...requires.map((r) => `Requires-Dist: ${r}`), ''].join('\n');
  zip.file(`${dist}.dist-info/METADATA`, meta);
  zip.file(`${dist}.dist-info/WHEEL`, 'Wheel-Version: 1.0\nGenerator: sandbar-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n');
  const record = [...Object.keys(files), `${dist}.dist-info/METADATA`, `${dist}.dist-info/WHEEL`].map((f) => `${f},,`).concat(`${dist}.dist-info/RECORD,,`, '').join('\n');
  zip.file(`${dist}.dist-info/RECORD`, record);
  const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return { filename: `${dist}-py3-none-any.whl`, data };
}

/** Debian's python3-pip-whl: pip run from its wheel inside images without pip. Missing in CI is a failure. */
export function hostPipWheel(): FixtureFile | null {
  const dir = '/usr/share/python-wheels';
  const name = existsSync(dir) ? readdirSync(dir).find((f) => /^pip-[\d.]+-py3-none-any\.whl$/.test(f)) : undefined;
  if (!name && isStrictCi()) throw new Error(`pip's wheel is missing from ${dir}: install python3-pip-whl (.ci/run does)`);
  return name ? { filename: name, data: readFileSync(`${dir}/${name}`) } : null;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export class FixtureIndex {
  readonly projects = new Map<string, FixtureFile[]>();
  readonly requests: string[] = [];
  /** Projects whose page is answered only after this many ms (a slow index, for the deadline). */
  readonly slowPages = new Map<string, number>();
  private server: http.Server | undefined;
  url = '';

  add(project: string, file: FixtureFile): void {
    this.projects.set(project, [...(this.projects.get(project) ?? []), file]);
  }

  downloads(): string[] {
    return this.requests.filter((r) => r.startsWith('/files/'));
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push(path);
      const page = /^\/simple\/([^/]+)\/$/.exec(path);
      const slow = page ? this.slowPages.get(page[1] ?? '') : undefined;
      if (slow !== undefined) return void setTimeout(() => res.writeHead(404).end(), slow).unref();
      if (page) {
        const files = this.projects.get(page[1] ?? '');
        if (!files) return void res.writeHead(404).end();
        const anchors = files.map((f) => `<a href="/files/${f.filename}#sha256=${f.wrongHash ? '0'.repeat(64) : sha256(f.data)}">${f.filename}</a>`);
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${anchors.join('<br/>')}</body></html>`);
      }
      const file = /^\/files\/([^/]+)$/.exec(path);
      const found = file && [...this.projects.values()].flat().find((f) => f.filename === file[1]);
      if (found) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(found.data);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/simple/`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}
