// The page the panel benchmark (and a person looking at the History view) opens without a server: the real
// production build of the panel, served over HTTP from a temporary folder, plus the preload shim bundled
// into one script for page.addInitScript. Nothing is written into the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

export interface PanelHarness {
  /** Where the panel is served (`http://127.0.0.1:PORT/`). */
  url: string;
  /** Run before the panel in every page: defines `window.sandbar` with N history rows. */
  initScript: string;
  close(): Promise<void>;
}

/** Builds the panel (vite, production mode) and the shim (esbuild), and serves the build on 127.0.0.1. */
export async function startPanelHarness(options: { rows: number; latencyMs?: number }): Promise<PanelHarness> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'sandbar-panel-history-'));
  const { build } = await import('vite');
  await build({
    configFile: path.join(repo, 'renderer/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  const esbuild = await import('esbuild');
  const shim = await esbuild.build({
    // The entry wires the shim to the panel's dev fake; kept here so the shim itself needs no DOM types.
    stdin: {
      contents: `import { createFakeApi } from ${JSON.stringify(path.join(repo, 'renderer/dev/fake-api.ts'))};
        import { installPreloadShim } from ${JSON.stringify(path.join(here, 'preload-shim.ts'))};
        installPreloadShim(globalThis, createFakeApi);`,
      resolveDir: here,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    // The dev fake checks import.meta.env; in this bundle it is always the harness.
    define: { 'import.meta.env.DEV': 'true', 'import.meta.env.MODE': '"fake"' },
    logLevel: 'warning',
  });
  const settings = JSON.stringify({ rows: options.rows, latencyMs: options.latencyMs ?? 0 });
  const initScript = `window.__panelHistoryOptions = ${settings};\n${shim.outputFiles[0]!.text}`;

  const server: Server = createServer(async (req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path.normalize(path.join(outDir, urlPath === '/' ? 'index.html' : decodeURIComponent(urlPath)));
    if (!file.startsWith(outDir)) return void res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    initScript,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
