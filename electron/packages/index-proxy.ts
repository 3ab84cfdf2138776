// The only way package files reach Sandbar: an HTTP server of ours that pip (in a container with no network,
// through a tunnel over its stdio) uses as its index. It asks the configured index and nothing else, lists
// wheels only, serves only files the index listed with a sha256, checks every byte against that hash, keeps
// each verified wheel in the store, and logs every request.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { normalizePackageName, type PackageFetch } from '../../shared/packages.js';
import { isWheel, parseSimplePage, renderSimplePage, type IndexFile } from './simple-page.js';

export interface WheelSink {
  /** Keeps a verified wheel (content-addressed); resolves once stored. */
  put(sha256: string, filename: string, data: Buffer): Promise<void>;
  /** Bytes of a wheel already stored, so a second fetch costs nothing. */
  get(sha256: string): Promise<Buffer | null>;
}

export interface IndexProxyOptions {
  /** The PEP 503 root, such as `https://index.example/simple/`. */
  indexUrl: string;
  wheels: WheelSink;
  onFetch?: (fetch: PackageFetch) => void;
  fetchImpl?: typeof fetch;
  /** Per upstream request. */
  timeoutMs?: number;
  /** Largest wheel accepted. */
  maxWheelBytes?: number;
}

export class IndexProxy {
  readonly server: http.Server;
  /** Files pip may ask for: only those an index page listed (with a hash) in this proxy's lifetime. */
  private readonly files = new Map<string, IndexFile>();
  private readonly fetches: PackageFetch[] = [];
  private readonly fetchImpl: typeof fetch;
  private readonly indexRoot: URL;

  constructor(private readonly options: IndexProxyOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.indexRoot = new URL(options.indexUrl.endsWith('/') ? options.indexUrl : `${options.indexUrl}/`);
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`Sandbar's package proxy failed: ${err instanceof Error ? err.message : String(err)}\n`);
      });
    });
  }

  /** Everything this proxy asked upstream, in order. */
  get log(): readonly PackageFetch[] {
    return this.fetches;
  }

  /** The first refusal or failure, for the run's error message. */
  get firstProblem(): PackageFetch | undefined {
    return this.fetches.find((f) => f.status === 'refused' || f.status === 'failed');
  }

  private record(fetch: PackageFetch): void {
    this.fetches.push(fetch);
    this.options.onFetch?.(fetch);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    const page = /^\/simple\/([^/]+)\/?$/.exec(path);
    if (page) return this.servePage(decodeURIComponent(page[1] ?? ''), res);
    const file = /^\/files\/([0-9a-f]{64})\/([^/]+)$/.exec(path);
    if (file) return this.serveFile(file[1] ?? '', res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  }

  private async upstream(url: string): Promise<Response> {
    return this.fetchImpl(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000), redirect: 'follow' });
  }

  private async servePage(name: string, res: http.ServerResponse): Promise<void> {
    const project = normalizePackageName(name);
    const url = new URL(`${encodeURIComponent(project)}/`, this.indexRoot).toString();
    let upstream: Response;
    try {
      upstream = await this.upstream(url);
    } catch (err) {
      this.record({ at: Date.now(), url, kind: 'page', status: 'failed', bytes: 0, detail: `the package index is unreachable: ${causeOf(err)}` });
      return void res.writeHead(502, { 'content-type': 'text/plain' }).end('index unreachable\n');
    }
    if (upstream.status === 404) {
      this.record({ at: Date.now(), url, kind: 'page', status: 'not_found', bytes: 0, detail: `no project named ${project} on the index` });
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
    if (!upstream.ok) {
      this.record({ at: Date.now(), url, kind: 'page', status: 'failed', bytes: 0, detail: `the index answered ${upstream.status}` });
      return void res.writeHead(502, { 'content-type': 'text/plain' }).end('index error\n');
    }
    const html = await upstream.text();
    const listed = parseSimplePage(html, upstream.url || url);
    // Wheels with a hash only: an sdist would mean running its build, and a file without a hash cannot be checked.
    const usable = listed.filter((f) => isWheel(f.filename) && f.sha256 !== null && /^[\w.!+-]+\.whl$/.test(f.filename));
    for (const file of usable) this.files.set(file.sha256!, file);
    const sdistOnly = listed.length > 0 && !listed.some((f) => isWheel(f.filename));
    this.record({
      at: Date.now(),
      url,
      kind: 'page',
      status: 'ok',
      bytes: html.length,
      ...(sdistOnly ? { detail: `${project} publishes no wheel (source distributions only); Sandbar never builds from source` } : {}),
    });
    const body = renderSimplePage(project, usable.map((file) => ({ file, href: `/files/${file.sha256}/${encodeURIComponent(file.filename)}` })));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  }

  private async serveFile(sha256: string, res: http.ServerResponse): Promise<void> {
    const file = this.files.get(sha256);
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not listed by the index\n');
    const stored = await this.options.wheels.get(sha256);
    if (stored) return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stored.length }).end(stored);
    let upstream: Response;
    try {
      upstream = await this.upstream(file.url);
    } catch (err) {
      this.record({ at: Date.now(), url: file.url, kind: 'file', status: 'failed', bytes: 0, detail: `could not download ${file.filename}: ${causeOf(err)}` });
      return void res.writeHead(502).end();
    }
    if (!upstream.ok || !upstream.body) {
      this.record({ at: Date.now(), url: file.url, kind: 'file', status: 'failed', bytes: 0, detail: `could not download ${file.filename}: the index answered ${upstream.status}` });
      return void res.writeHead(502).end();
    }
    // Whole, then checked, then served: pip never sees a byte the hash does not cover.
    const max = this.options.maxWheelBytes ?? 1024 * 1024 * 1024;
    const chunks: Buffer[] = [];
    let size = 0;
    const hash = createHash('sha256');
    for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > max) {
        this.record({ at: Date.now(), url: file.url, kind: 'file', status: 'refused', bytes: size, detail: `${file.filename} is larger than ${max} bytes` });
        return void res.writeHead(502).end();
      }
      hash.update(chunk);
      chunks.push(Buffer.from(chunk));
    }
    const actual = hash.digest('hex');
    if (actual !== sha256) {
      this.record({ at: Date.now(), url: file.url, kind: 'file', status: 'refused', bytes: size, detail: `hash mismatch for ${file.filename}: the index says sha256 ${sha256}, the file has ${actual}` });
      return void res.writeHead(502).end();
    }
    const data = Buffer.concat(chunks, size);
    await this.options.wheels.put(sha256, file.filename, data);
    this.record({ at: Date.now(), url: file.url, kind: 'file', status: 'ok', bytes: size });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size }).end(data);
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
