// Request states for MCP 2026-07-28's multi round-trip requests: what Sandbar hands a client with a
// question and takes back on its retry. They travel through the client, so each is signed (HMAC-SHA256
// with a key that lives only in this process's memory), bound to the caller and the run, expires, and is
// good for one retry. A refusal consumes nothing: the state a forger copied still works for its owner.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a state says: which held run, which questions it asked, and for which `run_python` arguments. */
export interface RequestStateClaims {
  run: string;
  questions: string[];
  /** A hash of the call's arguments: a retry must repeat the call it continues. */
  args: string;
}

export const REFUSAL_REASONS = ['malformed', 'forged', 'other-caller', 'other-call', 'expired', 'replayed'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export type OpenedState = { ok: true; claims: RequestStateClaims } | { ok: false; reason: RefusalReason; message: string };

interface Payload {
  v: 1;
  /** The caller's fingerprint (a keyed hash: the state never carries a credential). */
  c: string;
  r: string;
  q: string[];
  a: string;
  /** Epoch ms after which the state is refused. */
  e: number;
  /** Makes every state unique, so a used one can be told from a new one. */
  n: string;
}

export interface RequestStateSignerOptions {
  /** How long a state is good for, in ms (read per mint: the approval deadline can change). */
  ttlMs: () => number;
  /** Tests pass a fixed key; the product makes one per process. */
  key?: Buffer;
  now?: () => number;
}

const PREFIX = 'sbrs1';
const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export class RequestStateSigner {
  private readonly key: Buffer;
  private readonly now: () => number;
  /** Nonces already used, each kept until its state would have expired anyway. */
  private readonly used = new Map<string, number>();

  constructor(private readonly options: RequestStateSignerOptions) {
    this.key = options.key ?? randomBytes(32);
    if (this.key.length < 32) throw new Error('A request-state key needs at least 32 bytes');
    this.now = options.now ?? Date.now;
  }

  mint(claims: RequestStateClaims, caller: string): string {
    const payload: Payload = { v: 1, c: this.fingerprint(caller), r: claims.run, q: claims.questions, a: claims.args, e: this.now() + this.options.ttlMs(), n: b64(randomBytes(16)) };
    const body = b64(JSON.stringify(payload));
    return `${PREFIX}.${body}.${this.sign(body)}`;
  }

  /** Checks a state from a client (for the call it must continue, when given) and, when it passes, marks it used. */
  open(state: string, caller: string, expected: { args?: string } = {}): OpenedState {
    const parts = state.split('.');
    if (parts.length !== 3 || parts[0] !== PREFIX) return refuse('malformed', 'it is not a request state Sandbar issued');
    const [, body, signature] = parts as [string, string, string];
    const wanted = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
      return refuse('forged', 'its signature does not match (altered, or issued by another Sandbar instance or before a restart)');
    }
    const payload = parsePayload(body);
    if (!payload) return refuse('malformed', 'its contents are not a request state');
    const mine = Buffer.from(this.fingerprint(caller));
    const theirs = Buffer.from(payload.c);
    if (mine.length !== theirs.length || !timingSafeEqual(mine, theirs)) return refuse('other-caller', 'it was issued to another caller');
    if (expected.args !== undefined && expected.args !== payload.a) return refuse('other-call', 'it was issued for a run_python call with other arguments');
    const now = this.now();
    this.prune(now);
    if (now > payload.e) return refuse('expired', `it expired ${Math.ceil((now - payload.e) / 1000)} s ago`);
    if (this.used.has(payload.n)) return refuse('replayed', 'it has been used already (each request state is good for one retry)');
    this.used.set(payload.n, payload.e);
    return { ok: true, claims: { run: payload.r, questions: payload.q, args: payload.a } };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(`${PREFIX}.${body}`).digest('base64url');
  }

  private fingerprint(caller: string): string {
    return createHmac('sha256', this.key).update(`caller\0${caller}`).digest('base64url').slice(0, 22);
  }

  private prune(now: number): void {
    for (const [nonce, expires] of this.used) if (expires < now) this.used.delete(nonce);
  }
}

function refuse(reason: RefusalReason, why: string): OpenedState {
  return { ok: false, reason, message: `Invalid requestState: ${why}. Call run_python again without it to start over.` };
}

function parsePayload(body: string): Payload | null {
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
    if (p.v !== 1 || typeof p.c !== 'string' || typeof p.r !== 'string' || !strings(p.q) || typeof p.a !== 'string' || typeof p.e !== 'number' || typeof p.n !== 'string') return null;
    return p as Payload;
  } catch {
    return null;
  }
}
