// Serves the built panel (dist/renderer) to browsers under `sandbar serve`: GET only, no directory
// listing, no path outside the folder, and the same CSP as the desktop window on every page.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './security-headers.js';

/** The same policy as the desktop window's (one definition, pinned by its test). */
export const PANEL_CSP = CONTENT_SECURITY_POLICY;
export { SECURITY_HEADERS };

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};


/** The file a URL path names inside `root`, or null when it would leave it. */
export function resolvePanelPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = path.resolve(root, relative);
  return full === root || full.startsWith(root + path.sep) ? full : null;
}

/** `file` with every symlink resolved, if it still lies inside `realRoot` (also resolved); else null. */
export async function realPathInside(realRoot: string, file: string): Promise<string | null> {
  const real = await realpath(file).catch(() => null);
  return real !== null && (real === realRoot || real.startsWith(realRoot + path.sep)) ? real : null;
}

export class PanelFiles {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Everything that is not the MCP endpoint or the API is a panel file (or a 404 from here). */
  matches(urlPath: string): boolean {
    return urlPath !== '/mcp' && !urlPath.startsWith('/api/');
  }

  async handle(req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS }).end();
      return;
    }
    const named = resolvePanelPath(this.root, urlPath);
    // A symlink inside the folder may point anywhere: what is served is the real file, and only from inside.
    const realRoot = await realpath(this.root).catch(() => this.root);
    const file = named ? await realPathInside(realRoot, named) : null;
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) {
      const missing = urlPath === '/' || urlPath === '/index.html';
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      res.end(missing ? 'The panel is not built. Run `npm run build`.\n' : 'Not found\n');
      return;
    }
    const ext = path.extname(file).toLowerCase();
    res.writeHead(200, {
      'content-type': MIME[ext] ?? 'application/octet-stream',
      'content-length': String(info.size),
      // Hashed asset names can be cached; the page itself must always be fresh.
      'cache-control': ext === '.html' ? 'no-store' : 'public, max-age=31536000, immutable',
      ...SECURITY_HEADERS,
    });
    if (req.method === 'HEAD') return void res.end();
    // The file can vanish between stat and open (a rebuild while serving): end this answer, not the process.
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  }
}
