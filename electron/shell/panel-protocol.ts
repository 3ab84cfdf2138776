// Serves the built panel on the app scheme (`app://sandbar/...`): files under one directory only, every
// response with the CSP and the right MIME type. Plain Node: window.ts hands this to protocol.handle.
import fs from 'node:fs';
import path from 'node:path';
import { APP_HOST, APP_SCHEME, PANEL_RESPONSE_HEADERS } from './window-options.js';

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file an app URL names inside `panelDir`, or null when it names nothing there: another scheme or
 * host, an undecodable path, a NUL or backslash, or a path that leaves the directory once decoded
 * (`/..%2f..%2fetc/passwd`). `/` is index.html.
 */
export function panelFileFor(requestUrl: string, panelDir: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded.replace(/^\/+/, '') || 'index.html';
  const root = path.resolve(panelDir);
  const file = path.resolve(root, relative);
  return isInside(root, file) ? file : null;
}

/** Strictly below `root` (not root itself, not a sibling such as `root-evil`). */
function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export interface PanelFs {
  readFile(file: string): Promise<Uint8Array>;
  /** Resolves symlinks, so a link inside the panel cannot point outside it. */
  realpath(file: string): Promise<string>;
  isFile(file: string): Promise<boolean>;
}

// Looked up on fs.promises at call time: Electron patches those for asar archives (the packaged panel).
const nodeFs: PanelFs = {
  readFile: (file) => fs.promises.readFile(file),
  realpath: (file) => fs.promises.realpath(file),
  isFile: async (file) => (await fs.promises.stat(file)).isFile(),
};

type Body = ConstructorParameters<typeof Response>[0];

function respond(status: number, body: Body, contentType = 'text/plain; charset=utf-8'): Response {
  return new Response(body, { status, headers: { ...PANEL_RESPONSE_HEADERS, 'Content-Type': contentType } });
}

/** A protocol.handle handler for the panel directory. */
export function createPanelHandler(options: { panelDir: string; fs?: PanelFs }): (request: { url: string; method: string }) => Promise<Response> {
  const files = options.fs ?? nodeFs;
  let rootReal: string | null = null;

  async function resolve(file: string): Promise<string | null> {
    try {
      // Resolved on first use and kept once found (the panel may be built after the app starts, in dev).
      rootReal ??= await files.realpath(path.resolve(options.panelDir));
      const root = rootReal;
      const real = await files.realpath(file);
      return isInside(root, real) && (await files.isFile(real)) ? real : null;
    } catch {
      return null;
    }
  }

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method not allowed');
    const file = panelFileFor(request.url, options.panelDir);
    if (!file) return respond(404, 'Not found');
    let found = await resolve(file);
    // Client-side routes (no extension) fall back to the app shell.
    if (!found && path.extname(file) === '') found = await resolve(path.join(path.resolve(options.panelDir), 'index.html'));
    if (!found) {
      const shell = path.basename(file) === 'index.html' && path.dirname(file) === path.resolve(options.panelDir);
      return respond(404, shell ? `The panel is not built (${options.panelDir} has no index.html). Run \`npm run build\`.` : 'Not found');
    }
    const body = request.method === 'HEAD' ? null : await files.readFile(found);
    return respond(200, body as Body, contentTypeOf(found));
  };
}
