// A fake `sandbar serve` for the HTTP client: answers calls from a handler map and serves event streams
// the test writes into frame by frame (or chunk by chunk).
import { vi } from 'vitest';

export interface EventStream {
  send(text: string): void;
  close(): void;
}

export function fakeServer(handlers: Record<string, (body: unknown, headers: Headers) => { status?: number; body: unknown }> = {}) {
  const streams: EventStream[] = [];
  let eventsStatus = 200;
  const encoder = new TextEncoder();
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (url.endsWith('/api/events')) {
      if (eventsStatus !== 200) return new Response('', { status: eventsStatus });
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
      });
      let open = true;
      const stream: EventStream = {
        send: (text) => open && controller.enqueue(encoder.encode(text)),
        close: () => {
          if (!open) return;
          open = false;
          controller.close();
        },
      };
      init?.signal?.addEventListener('abort', () => {
        if (open) controller.error(new DOMException('aborted', 'AbortError'));
        open = false;
      });
      streams.push(stream);
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    const method = url.replace(/^.*\/api\/call\//, '');
    const handler = handlers[method];
    if (!handler) return new Response(JSON.stringify({ ok: false, error: { code: 'invalid_request', message: `no ${method}` } }), { status: 404 });
    const answer = handler(init?.body ? JSON.parse(String(init.body)) : undefined, headers);
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  return {
    fetch,
    streams,
    setEventsStatus: (status: number) => {
      eventsStatus = status;
    },
    /** Headers of the n-th fetch call. */
    headersOf: (n: number) => new Headers(fetch.mock.calls[n]?.[1]?.headers),
  };
}

export const frame = (event: string, data: unknown, id?: number) => `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
