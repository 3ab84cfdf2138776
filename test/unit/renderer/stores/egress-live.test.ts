// A running run's connections in the Live store: each connection reported as decided and again as it ends
// is one row, refusals are their own rows, the list is bounded, and nothing is kept for a run that is not
// running here (or that finished while events were missed).
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_EGRESS_RECORDS, type EgressRecord } from '../../../../shared/egress-audit.js';
import { EMPTY_EGRESS, mergeEgress } from '../../../../renderer/stores/egress-merge.js';
import { useLiveStore } from '../../../../renderer/stores/live-store.js';
import { finished, running, snapshot } from './fixtures.js';
import { resetStores } from './reset.js';

const decided = (host: string, port = 443): EgressRecord => ({ host, port, decision: 'allowed', bytesOut: 0, bytesIn: 0, method: 'CONNECT' });
const ended = (host: string, bytesIn: number, port = 443): EgressRecord => ({ ...decided(host, port), bytesOut: 100, bytesIn });
const denied = (host: string): EgressRecord => ({ host, port: 443, decision: 'denied', reason: 'not allowed', bytesOut: 0, bytesIn: 0 });

const merged = (...records: EgressRecord[]) => records.reduce(mergeEgress, EMPTY_EGRESS);

describe('mergeEgress', () => {
  it('turns a connection reported as decided and then as ended into one row with the final bytes', () => {
    const state = merged(decided('a.example'), ended('a.example', 2048));
    expect(state.records).toEqual([ended('a.example', 2048)]);
    expect(state.open).toEqual([]);
  });

  it('keeps two connections to the same place apart, each ended once, and a third one as a new row', () => {
    const state = merged(decided('a.example'), decided('a.example'), ended('a.example', 1), ended('a.example', 2), ended('a.example', 3));
    expect(state.records.map((r) => r.bytesIn)).toEqual([1, 2, 3]);
  });

  it('never merges across host or port, and a refusal is always a row of its own', () => {
    const state = merged(decided('a.example'), denied('a.example'), decided('a.example', 80), ended('b.example', 5), ended('a.example', 7, 80));
    expect(state.records).toEqual([decided('a.example'), denied('a.example'), ended('a.example', 7, 80), ended('b.example', 5)]);
    expect(state.open).toEqual([0]);
  });

  it('as the proxy reports today (once per connection, as it ends): every connection is its own row', () => {
    const get = (path: string, bytesIn: number): EgressRecord => ({ host: 'a.example', port: 80, decision: 'allowed', bytesOut: 90, bytesIn, method: 'GET', path, status: 200 });
    const state = merged(get('/one', 1), get('/one', 2), get('/two', 3), denied('a.example'));
    expect(state.records.map((r) => r.bytesIn)).toEqual([1, 2, 3, 0]);
    expect(state.open).toEqual([]);
  });

  it('updates an open row only for the same request (method, path and secret too)', () => {
    const open = { ...decided('a.example'), method: 'GET', path: '/x' };
    const state = merged(open, { ...open, path: '/y', bytesIn: 5, bytesOut: 1 }, { ...open, bytesIn: 6, bytesOut: 1, status: 200 });
    expect(state.records).toEqual([{ ...open, bytesIn: 6, bytesOut: 1, status: 200 }, { ...open, path: '/y', bytesIn: 5, bytesOut: 1 }]);
  });

  it('keeps at most MAX_EGRESS_RECORDS rows and counts the rest, while open rows still update', () => {
    let state = merged(decided('first.example'));
    for (let i = 1; i < MAX_EGRESS_RECORDS + 10; i++) state = mergeEgress(state, denied(`h${i}.example`));
    expect(state.records).toHaveLength(MAX_EGRESS_RECORDS);
    expect(state.dropped).toBe(10);
    state = mergeEgress(state, ended('first.example', 9));
    expect(state.records[0]).toEqual(ended('first.example', 9));
    expect(state.dropped).toBe(10);
  });
});

describe('the Live store and execution.egress', () => {
  beforeEach(() => {
    resetStores();
    useLiveStore.getState().snapshotLoaded(snapshot({ running: [running('run-1'), running('run-2')] }));
  });

  it('keeps connections per running run, ignores an unknown run, and drops them when the run finishes', () => {
    const live = useLiveStore.getState();
    live.executionEgress({ id: 'run-1', record: decided('a.example') });
    live.executionEgress({ id: 'run-1', record: ended('a.example', 10) });
    live.executionEgress({ id: 'run-2', record: denied('b.example') });
    live.executionEgress({ id: 'gone', record: denied('c.example') });
    expect(useLiveStore.getState().egress['run-1']!.records).toEqual([ended('a.example', 10)]);
    expect(useLiveStore.getState().egress['run-2']!.records).toEqual([denied('b.example')]);
    expect(useLiveStore.getState().egress).not.toHaveProperty('gone');
    live.executionFinished({ result: finished('run-1', { egress: [ended('a.example', 10)] }) });
    expect(useLiveStore.getState().egress).not.toHaveProperty('run-1');
    // The finished run's connections are in its result, in Recent.
    expect(useLiveStore.getState().recent[0]!.egress).toEqual([ended('a.example', 10)]);
  });

  it('forgets the connections of a run a fresh snapshot no longer lists (its end was missed)', () => {
    useLiveStore.getState().executionEgress({ id: 'run-1', record: denied('a.example') });
    useLiveStore.getState().executionEgress({ id: 'run-2', record: denied('b.example') });
    useLiveStore.getState().snapshotLoaded(snapshot({ running: [running('run-2')] }));
    expect(Object.keys(useLiveStore.getState().egress)).toEqual(['run-2']);
  });
});
