// A small request over node:http for the CLI's talks with a running instance on 127.0.0.1. Not fetch:
// the first fetch loads undici and web streams, about 50 ms of a joined `sandbar run`'s 0.3 s budget.
import http from 'node:http';

export interface LoopbackResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One keep-alive connection serves the few requests of a CLI command in a row. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function loopbackRequest(
  url: string,
  options: { method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<LoopbackResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method, headers: options.headers, agent }, (res) => {
      // A probe of an event stream needs only the status: do not wait for a stream that never ends.
      if (options.method === 'GET') {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.end(options.body);
  });
}

/** Lets the process exit without waiting for idle keep-alive sockets to time out. */
export function closeLoopbackConnections(): void {
  agent.destroy();
}
