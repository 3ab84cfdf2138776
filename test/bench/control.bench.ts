// The panel's control API: the cost of a call over IPC (structured clone, as Electron does) and over
// HTTP (fetch with keep-alive, as the browser panel does) against the router called directly; how long an
// event takes to reach an SSE client against a direct subscriber; and a real run printing ~10,000 lines
// a second streamed to an SSE subscriber in 50 ms batches. Interleaved in one run so noise hits all alike.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpApi, ipcChannel, type EventMessage } from '../../shared/contract.js';
import { registerIpcTransport } from '../../electron/control/ipc-transport.js';
import { SseParser } from '../../renderer/api/sse-parser.js';
import { createLogger } from '../../electron/logger.js';
import { createSandbarApp } from '../../electron/sandbar-app.js';
import { ms, percentile, sleep } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const CALLS = Number(process.env.BENCH_CONTROL_CALLS ?? 1000);
const EVENTS = Number(process.env.BENCH_CONTROL_EVENTS ?? 300);

function sseReader(url: string, token: string, onMessage: (event: string, data: string, at: number) => void): Promise<{ connectionId: string; close: () => void }> {
  const abort = new AbortController();
  return new Promise((resolve, reject) => {
    fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal })
      .then(async (res) => {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          const at = performance.now();
          for (const frame of parser.push(value)) {
            if (frame.event === 'connected') resolve({ connectionId: (JSON.parse(frame.data) as { connectionId: string }).connectionId, close: () => abort.abort() });
            else onMessage(frame.event, frame.data, at);
          }
        }
      })
      .catch((err: unknown) => (abort.signal.aborted ? undefined : reject(err)));
  });
}

// Sub-millisecond paths need more digits than ms() gives.
const fine = (n: number) => (n < 1 ? n.toFixed(3) : ms(n));
const row = (name: string, values: number[], base?: number[]) => {
  const ratio = base ? ` | ${(percentile(values, 50) / percentile(base, 50)).toFixed(1)}×` : ' | 1.0×';
  return `| ${name} | ${fine(percentile(values, 50))} | ${fine(percentile(values, 95))}${ratio} |`;
};

export async function benchControl(): Promise<string> {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-control-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: IMAGE, poolSize: 1, httpPort: 0 }));
  const app = createSandbarApp({ env: { ...process.env, SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'error' }, log: createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' }) });
  await app.start();
  const base = `http://127.0.0.1:${app.endpoint.port}`;
  const token = new URL(app.panelUrl()!).hash.replace('#token=', '');

  // IPC: the real transport with a stand-in ipcMain; arguments and answers are structured-cloned as IPC does.
  const handlers = new Map<string, (event: { sender: { id: number } }, args: unknown) => Promise<unknown>>();
  registerIpcTransport({ ipcMain: { handle: (c, l) => void handlers.set(c, l), removeHandler: () => {} }, router: app.router, isTrusted: () => true });
  const ipcSnapshot = handlers.get(ipcChannel.call('live.snapshot'))!;

  const direct: number[] = [];
  const ipc: number[] = [];
  const http: number[] = [];
  await sleep(3000);
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await app.router.call('live.snapshot', {});
    direct.push(performance.now() - t);
    t = performance.now();
    structuredClone(await ipcSnapshot({ sender: { id: 1 } }, structuredClone({})));
    ipc.push(performance.now() - t);
    t = performance.now();
    const res = await fetch(`${base}${httpApi.call('live.snapshot')}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    await res.json();
    http.push(performance.now() - t);
  }

  // Event latency: a tool-call event published on the engine stream, seen by a direct router connection
  // and by an SSE client reading over HTTP.
  const sentAt = new Map<number, number>();
  const directLatency: number[] = [];
  const sseLatency: number[] = [];
  const conn = app.router.connect((m: EventMessage) => {
    if (m.event === 'execution.toolCall') directLatency.push(performance.now() - sentAt.get((m.data as { call: { startedAt: number } }).call.startedAt)!);
  });
  const sse = await sseReader(`${base}${httpApi.events}`, token, (event, data, at) => {
    if (event === 'execution.toolCall') sseLatency.push(at - sentAt.get((JSON.parse(data) as { call: { startedAt: number } }).call.startedAt)!);
  });
  for (let i = 0; i < EVENTS; i++) {
    sentAt.set(i, performance.now());
    app.core.engine.publish({ type: 'toolCall', call: { executionId: 'bench', server: 's', tool: 't', startedAt: i, durationMs: 1, bytesIn: 10, bytesOut: 10, isError: false } });
    await sleep(5);
  }
  await sleep(200);
  conn.close();
  sse.close();

  // Streaming: ~10,000 lines a second for 3 s, followed over SSE.
  const LINES = 30_000;
  const code = `import time\nfor i in range(${LINES}):\n    print(f"line {i:06d} " + "x" * 18)\n    if i % 100 == 99:\n        time.sleep(0.01)`;
  let received = '';
  let chunks = 0;
  let lastChunkAt = 0;
  const gaps: number[] = [];
  let follow!: (id: string) => Promise<void>;
  const stream = await sseReader(`${base}${httpApi.events}`, token, (event, data, at) => {
    if (event === 'execution.started') void follow((JSON.parse(data) as { id: string }).id);
    if (event !== 'output.chunk') return;
    const chunk = JSON.parse(data) as { stdout: string };
    received += chunk.stdout;
    if (lastChunkAt) gaps.push(at - lastChunkAt);
    lastChunkAt = at;
    chunks++;
  });
  follow = async (id) => {
    const res = await fetch(`${base}${httpApi.call('output.subscribe')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', [httpApi.connectionHeader]: stream.connectionId },
      body: JSON.stringify({ id }),
    });
    const answer = (await res.json()) as { ok: boolean; value: { stdout: string } | null };
    if (answer.ok && answer.value) received = answer.value.stdout + received;
  };
  const started = performance.now();
  const result = await app.core.engine.submit({ code, timeoutSec: 60 }).result;
  const runMs = performance.now() - started;
  await sleep(300);
  stream.close();
  const lines = received.split('\n').filter(Boolean).length;
  await app.dispose(5000);

  return [
    '### Control API (panel ↔ main process)',
    '',
    `${CALLS} \`live.snapshot\` calls per transport, interleaved; then ${EVENTS} events 5 ms apart. Ratios against the router called directly.`,
    '',
    '| path | median ms | p95 ms | vs direct |',
    '|---|---|---|---|',
    row('router.call (direct)', direct),
    row('IPC transport (structured clone both ways)', ipc, direct),
    row('HTTP `POST /api/call` (fetch, keep-alive)', http, direct),
    row('event → direct connection', directLatency),
    row('event → SSE client over HTTP', sseLatency, directLatency),
    '',
    `Streaming: a run printing ${LINES.toLocaleString('en')} lines (${(LINES / (runMs / 1000)).toFixed(0)} lines/s over ${(runMs / 1000).toFixed(1)} s, exit ${result.exitReason}) followed over SSE: ${lines.toLocaleString('en')} lines received in ${chunks} chunks; median gap between chunks ${ms(percentile(gaps, 50))} ms, p95 ${ms(percentile(gaps, 95))} ms.`,
  ].join('\n');
}
