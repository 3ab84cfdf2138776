// @vitest-environment jsdom
// The Live view's questions: shown from the approvals event, answered with the four choices, arguments
// shown as text (never markup), gone once answered.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApprovalsCard } from '../../../../renderer/features/live/approvals-card.js';
import { useApprovalsStore } from '../../../../renderer/stores/approvals-store.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const question = {
  id: 'a1b2c3d4e5f6',
  runId: '0123456789abcdef',
  server: 'files',
  tool: 'delete_file',
  args: { path: '/home/me/<b>report</b>.txt' },
  expiresAt: Date.now() + 90_000,
};

beforeEach(() => {
  resetStores();
  fakeApi.calls.length = 0;
  fakeApi.handle('approvals.decide', () => ({ decided: true }));
});
afterEach(() => cleanup());

describe('ApprovalsCard', () => {
  it('shows nothing while nothing waits', () => {
    const { container } = render(<ApprovalsCard />);
    expect(container.innerHTML).toBe('');
  });

  it('shows the call with its arguments as text and answers it', async () => {
    act(() => useApprovalsStore.getState().approvalsChanged({ pending: [question] }));
    render(<ApprovalsCard />);
    expect(screen.getByText('files/delete_file')).toBeTruthy();
    expect(screen.getByText(/"path": "\/home\/me\/<b>report<\/b>\.txt"/)).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByText(/s, then denied/).textContent).toMatch(/^run 01234567 · (89|90) s, then denied$/);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow for this run' }));
    });
    expect(fakeApi.callsOf('approvals.decide')).toEqual([{ id: question.id, decision: 'allow-run' }]);
    expect(screen.queryByText('files/delete_file')).toBeNull();
  });

  it('shows the code line labelled as the sandbox\'s word, identical calls counted, and nothing raw from the code', () => {
    const hostile = { ...question, args: { path: '/tmp/\u001b[2J\u202eexe.txt\u200b' }, codeLine: 'line 4: await mcp_files.delete_file(path=p) # \u001b[31m\u2066hi', calls: 2 };
    act(() => useApprovalsStore.getState().approvalsChanged({ pending: [hostile] }));
    const { container } = render(<ApprovalsCard />);
    // eslint-disable-next-line no-control-regex
    expect(container.textContent).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(screen.getByText('Code line, as reported by the sandbox')).toBeTruthy();
    expect(container.querySelector('.approval-code')!.textContent).toBe('line 4: await mcp_files.delete_file(path=p) # hi');
    expect(container.querySelector('.approval-args')!.textContent).toBe('{\n  "path": "/tmp/\\u001b[2J\\u202eexe.txt\\u200b"\n}');
    expect(screen.getByText('2 identical calls wait: the answer covers each')).toBeTruthy();
  });

  it('sends deny and always-allow as asked', async () => {
    act(() => useApprovalsStore.getState().approvalsChanged({ pending: [question, { ...question, id: 'ffffffffffff', tool: 'send_email' }] }));
    render(<ApprovalsCard />);
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Deny' })[0]!);
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow this tool' }));
    });
    expect(fakeApi.callsOf('approvals.decide')).toEqual([
      { id: question.id, decision: 'deny' },
      { id: 'ffffffffffff', decision: 'allow-always' },
    ]);
  });
});
