// Event fan-out with nobody connected: the queue and pool summary (an engine snapshot per event) is not
// computed for no one, yet the moment a panel is there it gets every summary, and the recent runs and
// the snapshot it asks for on connecting are whole either way.
import { describe, expect, it, vi } from 'vitest';
import { setup } from './live-monitor-fake.js';

describe('live events and listeners', () => {
  it('takes no engine snapshot for the summaries while nobody listens, and keeps what a later panel asks for', () => {
    let connected = false;
    const { engine, monitor, of } = setup(undefined, () => connected);
    const snapshot = vi.spyOn(engine, 'snapshot');
    engine.queue('a');
    engine.start('a');
    engine.finish('a');
    expect(snapshot).not.toHaveBeenCalled();
    expect(of('live.changed')).toEqual([]);
    // Per-run announcements are still handed to broadcast (the router sends them to whoever is connected).
    expect(of('execution.finished').map((f) => f.result.id)).toEqual(['a']);

    connected = true;
    expect(monitor.snapshot().recent.map((r) => r.id)).toEqual(['a']);
    engine.queue('b');
    expect(of('live.changed')).toEqual([{ paused: false, pool: expect.any(Object), running: 0, queued: 1 }]);
  });

  it('without a listening test (as before), announces every change', () => {
    const { engine, of } = setup();
    engine.queue('a');
    engine.start('a');
    engine.finish('a');
    expect(of('live.changed').map((c) => [c.running, c.queued])).toEqual([[0, 1], [1, 0], [0, 0]]);
  });
});
