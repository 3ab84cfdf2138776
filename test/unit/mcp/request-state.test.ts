// The request-state signer: states round-trip once for their caller before they expire; a forged, altered,
// foreign, expired or replayed one is refused with its reason, and a refusal uses nothing up.
import { describe, expect, it } from 'vitest';
import { RequestStateSigner } from '../../../electron/mcp/request-state.js';

const claims = { run: 'run-1', questions: ['q1', 'q2'], args: 'abc' };
const KEY = Buffer.alloc(32, 7);

function signer(clock = { t: 1_000_000 }, key = KEY) {
  return { clock, s: new RequestStateSigner({ ttlMs: () => 120_000, key, now: () => clock.t }) };
}

/** Flips one character of the payload part, keeping it valid base64url. */
function alter(state: string): string {
  const [prefix, body, sig] = state.split('.') as [string, string, string];
  const i = Math.floor(body.length / 2);
  return `${prefix}.${body.slice(0, i)}${body[i] === 'A' ? 'B' : 'A'}${body.slice(i + 1)}.${sig}`;
}

describe('RequestStateSigner', () => {
  it('gives back the claims for the caller it was minted for, once', () => {
    const { s } = signer();
    const state = s.mint(claims, 'client-token:aa');
    expect(s.open(state, 'client-token:aa')).toEqual({ ok: true, claims });
    expect(s.open(state, 'client-token:aa')).toMatchObject({ ok: false, reason: 'replayed', message: expect.stringMatching(/used already/) });
  });

  it('mints a different state every time, even for the same claims', () => {
    const { s } = signer();
    expect(s.mint(claims, 'c')).not.toBe(s.mint(claims, 'c'));
  });

  it('carries no credential in the clear', () => {
    const { s } = signer();
    const state = s.mint(claims, 'client-token:secret-fingerprint');
    const body = Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8');
    expect(body).not.toContain('secret-fingerprint');
  });

  it('refuses an altered payload as forged, and the original still works', () => {
    const { s } = signer();
    const state = s.mint(claims, 'c');
    expect(s.open(alter(state), 'c')).toMatchObject({ ok: false, reason: 'forged' });
    expect(s.open(state, 'c')).toMatchObject({ ok: true });
  });

  it('refuses a state signed with another key (another instance, or before a restart)', () => {
    const other = signer(undefined, Buffer.alloc(32, 9)).s.mint(claims, 'c');
    expect(signer().s.open(other, 'c')).toMatchObject({ ok: false, reason: 'forged' });
  });

  it('refuses a hand-made state whose signature is computed without the key', () => {
    const { s } = signer();
    const body = Buffer.from(JSON.stringify({ v: 1, c: 'x', r: 'run-1', q: ['q1'], a: 'abc', e: 9e15, n: 'n' })).toString('base64url');
    expect(s.open(`sbrs1.${body}.${'A'.repeat(43)}`, 'c')).toMatchObject({ ok: false, reason: 'forged' });
  });

  it('refuses what is not a state at all', () => {
    const { s } = signer();
    for (const junk of ['', 'abc', 'sbrs1.a', 'xx.yy.zz', 'sbrs1..']) expect(s.open(junk, 'c')).toMatchObject({ ok: false, reason: expect.stringMatching(/malformed|forged/) });
    expect(s.open('other.a.b', 'c')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses another caller, and the owner can still use it', () => {
    const { s } = signer();
    const state = s.mint(claims, 'client-token:aa');
    expect(s.open(state, 'stdio:conn-2')).toMatchObject({ ok: false, reason: 'other-caller', message: expect.stringMatching(/another caller/) });
    expect(s.open(state, 'client-token:aa')).toMatchObject({ ok: true });
  });

  it('refuses a state offered with other arguments than the call it continues, and the right call can still use it', () => {
    const { s } = signer();
    const state = s.mint(claims, 'c');
    expect(s.open(state, 'c', { args: 'other' })).toMatchObject({ ok: false, reason: 'other-call', message: expect.stringMatching(/other arguments/) });
    expect(s.open(state, 'c', { args: 'abc' })).toMatchObject({ ok: true });
  });

  it('refuses an expired state, saying how long ago it expired', () => {
    const { s, clock } = signer();
    const state = s.mint(claims, 'c');
    clock.t += 120_000;
    const fresh = s.mint(claims, 'c');
    clock.t += 3_000;
    expect(s.open(state, 'c')).toEqual({ ok: false, reason: 'expired', message: expect.stringMatching(/expired 3 s ago/) });
    expect(s.open(fresh, 'c')).toMatchObject({ ok: true });
  });

  it('refuses a replay even after the used-nonce list is pruned, because by then the state has expired', () => {
    const { s, clock } = signer();
    const state = s.mint(claims, 'c');
    expect(s.open(state, 'c').ok).toBe(true);
    clock.t += 121_000;
    expect(s.open(state, 'c')).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('wants a key of at least 256 bits', () => {
    expect(() => new RequestStateSigner({ ttlMs: () => 1000, key: Buffer.alloc(16) })).toThrow(/32 bytes/);
  });
});
