// Egress overhead (issue 26): plain HTTP GETs from Python to an upstream on the host's 127.0.0.1, through the
// sandbox's egress proxy (loopback listener → agent channel → host proxy → upstream) against the same Python
// script on the host going direct. Two clients each: a new connection per request (urllib) and one kept-alive
// connection (http.client). The sides alternate in blocks (A B A B), every block after its own warm-up
// requests, the same script and `python3 -c` both sides; the warm pool is full again before every sandbox block.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EgressRuns } from '../../electron/egress/egress-runs.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { ms, percentile, sleep } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const REQUESTS = Number(process.env.BENCH_EGRESS_REQUESTS ?? 400);
const BLOCKS = Math.max(1, Math.min(REQUESTS, Number(process.env.BENCH_EGRESS_BLOCKS ?? 4)));
const PER_BLOCK = Math.ceil(REQUESTS / BLOCKS);
const WARMUP = 10;

/** Python timing WARMUP + PER_BLOCK GETs per client; through HTTP_PROXY when it is set, else direct. Prints JSON. */
const script = (port: number) => `
import http.client, json, os, time, urllib.request
url = "http://127.0.0.1:${port}/bench"
proxy = os.environ.get("HTTP_PROXY")
def timed(fetch):
    times, begun = [], None
    for i in range(${WARMUP + PER_BLOCK}):
        if i == ${WARMUP}:
            begun = time.perf_counter()
        start = time.perf_counter()
        fetch()
        times.append((time.perf_counter() - start) * 1000)
    return {"times": times[${WARMUP}:], "seconds": time.perf_counter() - begun}
def fresh():
    with urllib.request.urlopen(url, timeout=30) as r:
        r.read()
where = proxy.rsplit(":", 1) if proxy else ["127.0.0.1", "${port}"]
conn = http.client.HTTPConnection(where[0].replace("http://", ""), int(where[1]), timeout=30)
def kept():
    conn.request("GET", url if proxy else "/bench")
    conn.getresponse().read()
print(json.dumps({"fresh": timed(fresh), "kept": timed(kept)}))
`;

type Side = { times: number[]; seconds: number };
type Sample = { fresh: Side; kept: Side };

export async function benchEgress(): Promise<string> {
  const upstream = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-egress-bench-'));
  const egress = new EgressRuns({
    home,
    env: {},
    settings: () => ({ egress: { allow: [`127.0.0.1:${port}`], deny: [] }, secrets: {}, egressCaFile: null, egressMaxBytes: 1024 ** 3, egressMaxConnections: 10_000 }),
  });
  const engine = new Engine(new CliBackend(new ContainerRuntime({ env: process.env, platform: process.platform }), newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 1 }, { egress: (onRecord) => egress.forRun(onRecord) });
  await engine.start();
  const code = script(port);
  const proxied: Sample[] = [];
  const direct: Sample[] = [];
  try {
    const poolFull = async () => {
      const deadline = Date.now() + 60_000;
      while (engine.snapshot().pool.ready < 1) {
        if (Date.now() > deadline) throw new Error('the warm pool did not refill within 60 s');
        await sleep(100);
      }
    };
    for (let b = 0; b < BLOCKS; b++) {
      await poolFull();
      const result = await engine.submit({ code, timeoutSec: 300 }).result;
      if (result.exitReason !== 'success') throw new Error(`egress bench failed: ${result.stderr || result.message}`);
      proxied.push(JSON.parse(result.stdout) as Sample);
      await poolFull();
      // The host side: the same script, no proxy variables (and none inherited).
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(https?|no|all)_proxy$/i.test(k)));
      const { stdout } = await promisify(execFile)('python3', ['-c', code], { env, maxBuffer: 16 * 1024 * 1024 });
      direct.push(JSON.parse(stdout) as Sample);
    }
  } finally {
    await engine.dispose();
    upstream.closeAllConnections();
    upstream.close();
    rmSync(home, { recursive: true, force: true });
  }
  const all = (samples: Sample[], client: keyof Sample) => samples.flatMap((s) => s[client].times);
  const rate = (samples: Sample[], client: keyof Sample) => samples.reduce((n, s) => n + s[client].times.length, 0) / samples.reduce((n, s) => n + s[client].seconds, 0);
  const row = (label: string, samples: Sample[], client: keyof Sample) => `| ${label} | ${rate(samples, client).toFixed(0)} | ${ms(percentile(all(samples, client), 50))} | ${ms(percentile(all(samples, client), 95))} |`;
  const added = (client: keyof Sample) => percentile(all(proxied, client), 50) - percentile(all(direct, client), 50);
  return [
    `### Egress: plain HTTP GETs to an upstream on the host, ${PER_BLOCK * BLOCKS} requests per client and side (${BLOCKS} blocks of ${PER_BLOCK}, interleaved A B A B, each block after ${WARMUP} warm-up requests; timed in Python)`,
    '',
    '| path | requests/s | p50 ms | p95 ms |',
    '|---|---|---|---|',
    row('A: sandbox → egress proxy → upstream, a new connection per request (urllib)', proxied, 'fresh'),
    row('B: host → upstream directly, a new connection per request (urllib)', direct, 'fresh'),
    row('A: sandbox → egress proxy → upstream, one kept-alive connection (http.client)', proxied, 'kept'),
    row('B: host → upstream directly, one kept-alive connection (http.client)', direct, 'kept'),
    '',
    `Egress adds **${ms(added('fresh'))} ms** per request with a new connection and **${ms(added('kept'))} ms** on a kept-alive one (p50, A − B).`,
  ].join('\n');
}
