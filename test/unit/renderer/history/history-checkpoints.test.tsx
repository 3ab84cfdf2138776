// @vitest-environment jsdom
// History and session checkpoints (issue 28), in the panel over a fake API: the detail pane of a call a step
// back discarded says so (and that its checkpoint went with it); the call that stepped back says where it
// came from; a call whose checkpoint the live session keeps says how to return to it, in the pane and as a
// mark on its row; an ended session's calls keep none.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryItem } from '../../../../shared/history.js';
import type { SessionInfo } from '../../../../shared/sessions.js';
import { callCheckpoint } from '../../../../renderer/features/history/session-rows.js';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { ROW_HEIGHT } from '../../../../renderer/features/history/history-table.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { useSessionsStore } from '../../../../renderer/stores/sessions-store.js';
import { connectFake } from './connect-fake.js';
import { FakeHistoryApi, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

const S = '3f2a9c0d7be14e21a6c85f09d3b7e412';

/** Newest first: calls 1, 2, 3 of S, then a step back to @1 (a new call 2). run-0 is the new 2; run-1 the discarded 3. */
function items(): HistoryItem[] {
  const rows = makeItems(6);
  const calls = [2, 3, 2, 1];
  return rows.map((r, k) => (k < calls.length ? { ...r, session: { id: S, call: calls[k]! } } : r));
}

function live(checkpoints: number[]): SessionInfo {
  return {
    id: S, client: { name: 'claude-code', version: null }, calls: 2, openedAt: 0, lastCallAt: 0, idleExpiresAt: 0, maxExpiresAt: 0,
    busy: false, memoryBytes: null, containerName: 'sandbar-1', checkpoints,
  };
}

async function open(runId: string) {
  connectFake(new FakeHistoryApi(items()));
  window.location.hash = `#/history/${runId}`;
  render(<HistoryPanel />);
  await act(settle);
  return screen.getByRole('complementary', { name: new RegExp(`Run ${runId}`) });
}

const row = (runId: string) => document.querySelector<HTMLElement>(`[role="row"][data-id="${runId}"]`)!;
const checkpointLine = (pane: HTMLElement) => pane.querySelector<HTMLElement>('[data-checkpoint]')!;

beforeAll(() => {
  // jsdom lays nothing out: give the grid's body a viewport so the virtualiser renders its rows.
  const viewport = (el: HTMLElement, size: number) => (el.classList.contains('hist-body') ? size : 0);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: HTMLElement) { return viewport(this, 20 * ROW_HEIGHT); } });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get(this: HTMLElement) { return viewport(this, 1000); } });
});

beforeEach(() => {
  useHistoryStore.getState().reset();
  useSessionsStore.getState().reset();
});
afterEach(() => {
  cleanup();
  useHistoryStore.getState().reset();
  useSessionsStore.getState().reset();
});

describe('History: session checkpoints', () => {
  it('marks a discarded call in the detail pane: discarded, and its checkpoint gone with it (though a new call 3 may be kept)', async () => {
    useSessionsStore.getState().sessionsLoaded([live([1, 2])]);
    const pane = await open('run-1');
    expect(pane.textContent).toContain('session 3f2a9c0d · call 3');
    expect(within(pane).getByText('discarded')).toBeTruthy();
    expect(pane.textContent).toContain('A later call stepped back to an earlier checkpoint: what this call did is gone');
    expect(checkpointLine(pane).dataset.checkpoint).toBe('discarded');
    expect(checkpointLine(pane).textContent).toBe('Its checkpoint was discarded with it');
    expect(row('run-1').textContent).toContain('discarded');
    expect(row('run-1').textContent).not.toContain('checkpoint');
  });

  it('says where a step back came from, and how to return to a call whose checkpoint the live session keeps', async () => {
    useSessionsStore.getState().sessionsLoaded([live([1, 2])]);
    const pane = await open('run-0');
    expect(pane.textContent).toContain('session 3f2a9c0d · call 2 · from @1');
    expect(pane.textContent).toContain('Stepped back: continued from the checkpoint of call 1, discarding the calls after it');
    expect(within(pane).queryByText('discarded')).toBeNull();
    expect(checkpointLine(pane).dataset.checkpoint).toBe('kept');
    expect(checkpointLine(pane).textContent).toContain(`Checkpoint kept: session: "${S}@2" continues from right after this call`);
    expect(within(pane).getByRole('button', { name: 'Copy checkpoint id' })).toBeTruthy();
    // The rows: the kept calls (the new 2, and 1) carry the mark; the discarded 2 and 3 do not.
    expect(row('run-0').textContent).toContain('checkpoint');
    expect(row('run-3').textContent).toContain('checkpoint');
    for (const id of ['run-1', 'run-2']) expect(row(id).textContent).not.toContain('checkpoint');
  });

  it('says when the live session keeps no checkpoint of a call, and that an ended session keeps none', async () => {
    useSessionsStore.getState().sessionsLoaded([live([2])]);
    let pane = await open('run-3');
    expect(checkpointLine(pane).textContent).toBe('No checkpoint of this call is kept now (the session steps back to 2)');
    cleanup();
    useSessionsStore.getState().reset();
    useHistoryStore.getState().reset();
    pane = await open('run-3');
    expect(checkpointLine(pane).textContent).toBe('The session has ended: its checkpoints went with it');
    expect(row('run-0').textContent).not.toContain('checkpoint');
  });

  it('callCheckpoint: discarded wins over a number the live list holds (it now names the call that replaced it)', () => {
    const sessions = [{ id: S, checkpoints: [1, 2] }];
    expect(callCheckpoint({ id: S, call: 2 }, true, sessions)).toEqual({ kind: 'discarded' });
    expect(callCheckpoint({ id: S, call: 2 }, false, sessions)).toEqual({ kind: 'kept', request: `${S}@2` });
    expect(callCheckpoint({ id: S, call: 3 }, false, sessions)).toEqual({ kind: 'not-kept', kept: [1, 2] });
    expect(callCheckpoint({ id: 'b'.repeat(32), call: 1 }, false, sessions)).toEqual({ kind: 'ended' });
  });
});
