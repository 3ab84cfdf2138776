// @vitest-environment jsdom
// The Live output pane: while following, only the last FOLLOW_LINES lines are in the DOM; scrolling up
// freezes the whole kept tail for reading, and "follow" goes back to the live end.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOLLOW_LINES, OutputView } from '../../../../renderer/features/live/output-view.js';
import { flushOutput, setFrameScheduler, useOutputStore } from '../../../../renderer/stores/output-store.js';

const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('');

function emit(stdout: string) {
  act(() => {
    useOutputStore.getState().outputChunk({ id: 'r1', stdout, stderr: '' });
    flushOutput();
  });
}

/** jsdom has no layout: give the pane a size and a scroll position by hand. */
function scrollPane(pane: HTMLElement, top: number) {
  Object.defineProperty(pane, 'scrollHeight', { configurable: true, value: 10_000 });
  Object.defineProperty(pane, 'clientHeight', { configurable: true, value: 240 });
  pane.scrollTop = top;
  fireEvent.scroll(pane);
}

beforeEach(() => {
  setFrameScheduler(() => {});
  useOutputStore.getState().reset();
});
afterEach(() => {
  cleanup();
  setFrameScheduler(null);
});

describe('OutputView', () => {
  it('keeps only the last lines in the DOM while following a chatty run, and says so', () => {
    render(<OutputView id="r1" label="output of r1" />);
    emit(lines(0, 2000));
    const pane = screen.getByLabelText('output of r1');
    const text = pane.textContent!;
    expect(text).toContain('line 1999');
    expect(text).not.toContain('line 1000\n');
    expect(text.split('\n').filter((l) => l.startsWith('line ')).length).toBe(FOLLOW_LINES);
    expect(text).toContain(`showing the last ${FOLLOW_LINES} lines while following`);
  });

  it('scrolling up freezes the whole kept tail; new output waits behind "follow"', () => {
    render(<OutputView id="r1" label="output of r1" />);
    emit(lines(0, 1000));
    const pane = screen.getByLabelText('output of r1');
    scrollPane(pane, 100);
    expect(pane.textContent).toContain('line 0\n');
    emit(lines(1000, 1100));
    expect(pane.textContent).not.toContain('line 1050');
    fireEvent.click(screen.getByRole('button', { name: /follow/ }));
    expect(pane.textContent).toContain('line 1099');
    expect(pane.textContent).not.toContain('line 0\n');
  });

  it('shows stderr marked apart from stdout', () => {
    render(<OutputView id="r1" label="output of r1" />);
    act(() => {
      useOutputStore.getState().outputChunk({ id: 'r1', stdout: 'fine\n', stderr: 'bad\n' });
      flushOutput();
    });
    expect(screen.getByTitle('stderr').textContent).toBe('bad\n');
  });
});
