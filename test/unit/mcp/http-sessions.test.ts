// The /mcp route's 2025-11-25 sessions: least recently used idle one evicted at the cap, busy ones never,
// idle ones expired after idleMs.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HttpSessions } from '../../../electron/mcp/http-sessions.js';

function fixture(maxSessions: number, idleMs = 60_000) {
  let now = 1000;
  const closed: string[] = [];
  const sessions = new HttpSessions<{ close(): void }>({ maxSessions, idleMs, now: () => now });
  const open = (id: string) => sessions.add(id, { close: () => void closed.push(id) });
  const response = () => new EventEmitter() as unknown as ServerResponse;
  return { sessions, closed, open, response, tick: (ms: number) => (now += ms) };
}

describe('HttpSessions', () => {
  it('makes room at the cap by closing the least recently used idle session', () => {
    const f = fixture(3);
    for (const id of ['a', 'b', 'c']) {
      f.open(id);
      f.tick(10);
    }
    // a is used again: b is now the least recently used.
    const res = f.response();
    f.sessions.track('a', res);
    res.emit('close');
    expect(f.sessions.makeRoom()).toBe(true);
    expect(f.closed).toEqual(['b']);
    expect(f.sessions.get('b')).toBeUndefined();
    expect(f.sessions.size).toBe(2);
  });

  it('never evicts a session with a request in flight or a stream open; with every one busy there is no room', () => {
    const f = fixture(2);
    f.open('streaming');
    f.open('calling');
    const stream = f.response();
    const call = f.response();
    f.sessions.track('streaming', stream);
    f.sessions.track('calling', call);
    expect(f.sessions.makeRoom()).toBe(false);
    expect(f.closed).toEqual([]);
    call.emit('close'); // the call answered: that session is idle again
    expect(f.sessions.makeRoom()).toBe(true);
    expect(f.closed).toEqual(['calling']);
    f.sessions.closeAll();
  });

  it('expires sessions idle for idleMs, not busy or recent ones', () => {
    const f = fixture(10, 5000);
    f.open('old');
    f.open('busy');
    f.sessions.track('busy', f.response());
    f.tick(4000);
    f.open('recent');
    f.tick(1000);
    f.sessions.expire();
    expect(f.closed).toEqual(['old']);
    f.tick(4000);
    f.sessions.expire();
    expect(f.closed).toEqual(['old', 'recent']);
    expect(f.sessions.get('busy')).toBeDefined();
    f.sessions.closeAll();
  });

  it('has room below the cap without closing anything', () => {
    const f = fixture(2);
    f.open('a');
    expect(f.sessions.makeRoom()).toBe(true);
    expect(f.closed).toEqual([]);
    f.sessions.closeAll();
  });
});
