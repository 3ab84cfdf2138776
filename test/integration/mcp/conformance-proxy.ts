// A loopback proxy for the official MCP conformance suite, which sends no Authorization header: it adds the
// client's bearer token and, for requests naming the proxy itself, rewrites Host and Origin to the server's.
// Any other Host or Origin passes unchanged, so the server's own DNS-rebinding guard is what gets tested.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  /** The proxy's URL for `target`'s path, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: URL, token: string): Promise<AuthProxy> {
  let own = '';
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = target.host;
    if (headers.origin === `http://${own}`) headers.origin = target.origin;
    const upstream = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    // The suite cancels SSE streams it has read enough of: the server must see that client go too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${own}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
