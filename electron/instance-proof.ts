// The proof that the listener at instance.json's address is the instance that wrote the file, before a
// CLI command sends it a token. The instance keeps a random key that only instance.json holds (owner-only,
// in the 0700 home); the CLI sends a fresh nonce to an unauthenticated endpoint, and the listener answers
// HMAC-SHA256(key, nonce + its own MCP URL). A process that took the port cannot answer without the key,
// and cannot relay the question to the real instance elsewhere: that instance would sign its own URL.
// Plain Node only (the CLI loads it before anything heavy).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeLoopbackConnections, loopbackRequest } from './loopback-http.js';

/** Unauthenticated on purpose: it reveals nothing but a MAC over a nonce the asker chose. */
export const PROOF_PATH = '/instance-proof';
export const NONCE_HEADER = 'x-sandbar-nonce';
export const PROOF_HEADER = 'x-sandbar-proof';

const HEX = (bytes: number) => new RegExp(`^[0-9a-f]{${bytes * 2}}$`);
const KEY = HEX(32);
const NONCE = HEX(32);

export const newInstanceKey = (): string => randomBytes(32).toString('hex');

export function isInstanceKey(value: unknown): value is string {
  return typeof value === 'string' && KEY.test(value);
}

/** Pure: the answer to `nonce` from the instance whose MCP endpoint is `url`. */
export function instanceProof(key: string, nonce: string, url: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(`sandbar-instance-proof\n${nonce}\n${url}`).digest('hex');
}

/** The listener's route: answers a well-formed nonce with the proof in a header, nothing else. */
export class InstanceProofRoute {
  constructor(private readonly options: { key: string; url: () => string }) {}

  matches(path: string): boolean {
    return path === PROOF_PATH;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const nonce = req.headers[NONCE_HEADER];
    if (req.method !== 'GET' || typeof nonce !== 'string' || !NONCE.test(nonce)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`GET with a ${NONCE_HEADER} of 64 hex digits`);
      return;
    }
    res.writeHead(204, { [PROOF_HEADER]: instanceProof(this.options.key, nonce, this.options.url()), 'cache-control': 'no-store' }).end();
  }
}

/** Asks the listener behind `url` (instance.json's) to prove it holds `key`; never sends a token. */
export async function proveInstance(url: string, key: string, timeoutMs = 1000): Promise<{ ok: true } | { ok: false; reason: string }> {
  const nonce = randomBytes(32).toString('hex');
  let answer: string | string[] | undefined;
  try {
    const res = await loopbackRequest(new URL(PROOF_PATH, url).toString(), { method: 'GET', headers: { [NONCE_HEADER]: nonce }, timeoutMs });
    answer = res.headers[PROOF_HEADER];
  } catch (err) {
    closeLoopbackConnections();
    return { ok: false, reason: `no answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  const expected = Buffer.from(instanceProof(key, nonce, url), 'hex');
  const given = typeof answer === 'string' && HEX(32).test(answer) ? Buffer.from(answer, 'hex') : null;
  if (given && timingSafeEqual(given, expected)) return { ok: true };
  // Not a connection to keep: the next request must not reuse a socket to an impostor.
  closeLoopbackConnections();
  return { ok: false, reason: 'it could not prove it holds the instance key' };
}
