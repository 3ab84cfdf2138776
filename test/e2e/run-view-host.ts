// A test host for the run view, as a client that implements MCP Apps is one: a page on one loopback
// origin runs ext-apps' AppBridge, the View runs in a sandbox proxy on another origin (an inner srcdoc
// iframe, scripts only, under a CSP that allows no network), and the MCP client is a real SDK client in
// Node on a real `sandbar serve`, reached from the page through a Playwright binding. Bridge in the page,
// client in Node: the page holds no token, and the client is the same one the tests call run_python with.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { RUN_VIEW_URI } from '../../shared/run-view.js';
import type { Served } from './serve-process.js';

const HOST_DIR = path.resolve('test/e2e/run-view-host');
/** The proxy page's own policy (its srcdoc child inherits it): inline code and data: images, nothing fetched. */
export const PROXY_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; base-uri 'none'";

/** An MCP client that declares MCP Apps (the extension and the View's type), as such hosts do. */
export async function appsClient(served: Served, name = 'e2e-apps-host'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${served.clientToken}` } } });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } } });
  await client.connect(transport);
  return client;
}

async function bundle(file: string): Promise<string> {
  const out = await build({ entryPoints: [path.join(HOST_DIR, file)], bundle: true, write: false, format: 'iife', platform: 'browser', target: 'chrome120', logLevel: 'warning' });
  return out.outputFiles[0]!.text;
}

function serve(routes: Record<string, { type: string; body: string; headers?: Record<string, string> }>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (!route) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store', ...route.headers }).end(route.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

export interface MountOptions {
  theme: 'light' | 'dark';
  /** What the host lets the View do; by default it proxies tools and resources, as Claude and VS Code do. */
  hostCapabilities?: Record<string, unknown>;
}

export interface ViewHost {
  page: Page;
  /** Every request the page and its frames made (URLs), data: ones left out. */
  requests: string[];
  /** Console errors, uncaught errors and CSP violations from every frame. */
  errors: string[];
  /** What the View asked the server for through the bridge: `tools/call <name>`, `resources/read <uri>`. */
  calls: string[];
  /** Loads the host page afresh and mounts the View (the resource as the server serves it). */
  mount(options: MountOptions): Promise<Frame>;
  sendInput(args: Record<string, unknown>): Promise<void>;
  sendPartialInput(args: Record<string, unknown>): Promise<void>;
  sendResult(result: CallToolResult): Promise<void>;
  setTheme(theme: 'light' | 'dark'): Promise<void>;
  sizes(): Promise<{ width?: number; height?: number }[]>;
  /** The origins the page may load from: the host's and the proxy's. */
  origins: string[];
  close(): Promise<void>;
}

export async function startViewHost(browser: Browser, client: Client): Promise<ViewHost> {
  const [hostJs, sandboxJs] = await Promise.all([bundle('host.mjs'), bundle('sandbox.mjs')]);
  const hostSite = await serve({
    '/': { type: 'text/html', body: '<!doctype html><html><head><title>host</title><link rel="icon" href="data:,"></head><body><script src="/host.js"></script></body></html>' },
    '/host.js': { type: 'text/javascript', body: hostJs },
  });
  const sandboxSite = await serve({
    '/sandbox.html': { type: 'text/html', body: '<!doctype html><html><head><link rel="icon" href="data:,"><style>html,body{margin:0;height:100%}</style></head><body><script src="/sandbox.js"></script></body></html>', headers: { 'content-security-policy': PROXY_CSP } },
    '/sandbox.js': { type: 'text/javascript', body: sandboxJs, headers: { 'content-security-policy': PROXY_CSP } },
  });
  const page = await browser.newPage({ viewport: { width: 800, height: 1000 } });
  const requests: string[] = [];
  const errors: string[] = [];
  const calls: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.exposeBinding('mcp', async (_source, method: string, params: Record<string, unknown>) => {
    calls.push(`${method} ${String(params.name ?? params.uri)}`);
    if (method === 'tools/call') return client.callTool(params as { name: string; arguments?: Record<string, unknown> });
    if (method === 'resources/read') return client.readResource(params as { uri: string });
    throw new Error(`the test host does not proxy ${method}`);
  });
  const read = await client.readResource({ uri: RUN_VIEW_URI });
  const content = read.contents[0] as { text: string; _meta?: { ui?: { csp?: object } } };

  const viewFrame = async (): Promise<Frame> => {
    for (let i = 0; i < 100; i++) {
      const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
      if (frame) return frame;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the View frame did not appear');
  };

  return {
    page,
    requests,
    errors,
    calls,
    origins: [hostSite.origin, sandboxSite.origin],
    mount: async ({ theme, hostCapabilities = { serverTools: {}, serverResources: {}, logging: {} } }) => {
      await page.goto(`${hostSite.origin}/`);
      await page.evaluate(
        (o) => (window as unknown as { startHost(o: unknown): Promise<void> }).startHost(o),
        { html: content.text, csp: content._meta?.ui?.csp ?? {}, theme, sandboxUrl: `${sandboxSite.origin}/sandbox.html`, hostCapabilities },
      );
      return viewFrame();
    },
    sendInput: (args) => page.evaluate((a) => (window as unknown as { bridge: { sendToolInput(p: unknown): Promise<void> } }).bridge.sendToolInput({ arguments: a }), args),
    sendPartialInput: (args) =>
      page.evaluate((a) => (window as unknown as { bridge: { sendToolInputPartial(p: unknown): Promise<void> } }).bridge.sendToolInputPartial({ arguments: a }), args),
    sendResult: (result) => page.evaluate((r) => (window as unknown as { bridge: { sendToolResult(p: unknown): Promise<void> } }).bridge.sendToolResult(r), result as unknown as Record<string, unknown>),
    setTheme: (theme) =>
      page.evaluate((t) => {
        const bridge = (window as unknown as { bridge: { sendHostContextChange(p: unknown): Promise<void> | void } }).bridge;
        return bridge.sendHostContextChange({ theme: t });
      }, theme),
    sizes: () => page.evaluate(() => (window as unknown as { sizes: { width?: number; height?: number }[] }).sizes),
    close: async () => {
      await page.close();
      await Promise.all([hostSite, sandboxSite].map(({ server }) => new Promise((r) => server.close(r))));
    },
  };
}
