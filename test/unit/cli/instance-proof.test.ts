// Before a CLI command sends a token to instance.json's address, the listener proves it is the recorded
// instance. An impostor on 127.0.0.1 (a process that took the port) must never receive a token: not from
// `sandbar stdio`'s probe, `sandbar run`'s bridge or `sandbar approvals`; not even by relaying the
// question to the real instance listening elsewhere.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRunningInstance, INSTANCE_FILE, readInstance, verifiedInstance } from '../../../electron/instance-file.js';
import { InstanceProofRoute, newInstanceKey, NONCE_HEADER, PROOF_HEADER } from '../../../electron/instance-proof.js';

const TOKEN = 'client-token-that-must-stay-home';
const servers: Server[] = [];

/** A listener on 127.0.0.1 that records every request's headers; `answer` decides its reply. */
async function listener(answer: (req: { url: string; headers: IncomingHttpHeaders }, res: ServerResponse) => void | Promise<void>) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    void answer({ url: req.url ?? '/', headers: req.headers }, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, sawToken: () => seen.some((h) => JSON.stringify(h).includes(TOKEN)) };
}

function homeRecording(url: string, key: string): string {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-proof-'));
  // This process is alive, so the record passes the pid check: only the proof stands between it and the token.
  writeFileSync(path.join(home, INSTANCE_FILE), JSON.stringify({ pid: process.pid, url, startedAt: 0, key }), { mode: 0o600 });
  return home;
}

/** Sandbar's own route answers the proof; anything else is what the MCP endpoint would answer a probe. */
function realInstance(key: string, url: () => string) {
  const route = new InstanceProofRoute({ key, url });
  return async (req: { url: string }, res: ServerResponse) => {
    if (route.matches(new URL(req.url, 'http://x').pathname)) return route.handle(res.req, res);
    res.writeHead(400).end();
  };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('the instance proof', () => {
  it('an impostor that answers everything never receives the token', async () => {
    const impostor = await listener((_req, res) => {
      res.writeHead(400, { [PROOF_HEADER]: 'ab'.repeat(32) }).end();
    });
    const home = homeRecording(impostor.url, newInstanceKey());
    expect(await findRunningInstance(home, TOKEN)).toBeNull();
    const verified = await verifiedInstance(home);
    expect(verified).toMatchObject({ ok: false, reason: expect.stringContaining('is not the Sandbar instance recorded in') });
    expect(impostor.seen.length).toBeGreaterThan(0);
    expect(impostor.sawToken()).toBe(false);
  });

  it('an impostor relaying the question to the real instance elsewhere does not pass', async () => {
    const key = newInstanceKey();
    let realUrl = '';
    const real = await listener(realInstance(key, () => realUrl));
    realUrl = real.url;
    const impostor = await listener(async (req, res) => {
      // Forwards the nonce to the real instance and hands back its answer.
      const answer = await new Promise<string | undefined>((resolve) => {
        request(new URL('/instance-proof', real.url), { headers: { [NONCE_HEADER]: String(req.headers[NONCE_HEADER]) } }, (r) => {
          r.resume();
          resolve(r.headers[PROOF_HEADER] as string | undefined);
        }).end();
      });
      res.writeHead(answer ? 204 : 400, answer ? { [PROOF_HEADER]: answer } : {}).end();
    });
    const home = homeRecording(impostor.url, key);
    expect(await findRunningInstance(home, TOKEN)).toBeNull();
    expect(impostor.sawToken()).toBe(false);
    expect(real.sawToken()).toBe(false);
  });

  it('the recorded instance proves itself and then gets the token; a record without a key is no instance', async () => {
    const key = newInstanceKey();
    let url = '';
    const real = await listener(realInstance(key, () => url));
    url = real.url;
    const home = homeRecording(real.url, key);
    expect(await findRunningInstance(home, TOKEN)).toEqual({ url: real.url, token: TOKEN });
    expect(real.sawToken()).toBe(true);

    writeFileSync(path.join(home, INSTANCE_FILE), JSON.stringify({ pid: process.pid, url: real.url, startedAt: 0 }));
    expect(readInstance(home)).toBeNull();
  });

  it('refuses a malformed nonce without answering a proof', async () => {
    const key = newInstanceKey();
    const real = await listener(realInstance(key, () => 'http://127.0.0.1:1/mcp'));
    const status = await new Promise<{ code: number; proof: unknown }>((resolve) => {
      request(new URL('/instance-proof', real.url), { headers: { [NONCE_HEADER]: 'short' } }, (r) => {
        r.resume();
        resolve({ code: r.statusCode ?? 0, proof: r.headers[PROOF_HEADER] });
      }).end();
    });
    expect(status).toEqual({ code: 400, proof: undefined });
  });
});
