// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../../../../renderer/components/copy-button.js';
import { DiffView, diffRows } from '../../../../renderer/components/diff-view.js';
import { Field } from '../../../../renderer/components/field.js';
import { ProgressBar, usageTone } from '../../../../renderer/components/progress-bar.js';
import { SliderField } from '../../../../renderer/components/slider-field.js';
import { Toasts } from '../../../../renderer/components/toasts.js';
import { memoryScale } from '../../../../renderer/features/limits/scales.js';
import { useUiStore } from '../../../../renderer/stores/ui-store.js';

afterEach(() => {
  cleanup();
  useUiStore.getState().reset();
  vi.useRealTimers();
});

describe('Field', () => {
  it('ties its error to the control for assistive technology', () => {
    render(
      <Field id="f" label="Memory" hint="a size" error="must be a size such as 512m or 1g">
        {(c) => <input {...c} />}
      </Field>,
    );
    const input = screen.getByLabelText('Memory');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe('must be a size such as 512m or 1g');
    expect(screen.getByRole('alert').textContent).toMatch(/must be a size/);
  });

  it('shows its hint when valid and a locked field as read-only with its source', () => {
    render(
      <Field id="f" label="Memory" hint="a size" locked="MCP_BRIDGE_MEMORY">
        {(c) => <input {...c} />}
      </Field>,
    );
    const input = screen.getByLabelText('Memory') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toMatch(/set by MCP_BRIDGE_MEMORY/);
  });
});

describe('SliderField', () => {
  it('writes the slider step back as text, and keeps the slider put while the text is invalid', () => {
    const onChange = vi.fn();
    const { rerender } = render(<SliderField id="m" label="Memory" value="512m" onChange={onChange} scale={memoryScale} />);
    const slider = screen.getByLabelText('Memory slider') as HTMLInputElement;
    const at512 = slider.value;
    fireEvent.change(slider, { target: { value: String(Number(at512) + 2) } });
    expect(onChange).toHaveBeenLastCalledWith('1g');
    fireEvent.change(screen.getByLabelText('Memory'), { target: { value: '2g' } });
    expect(onChange).toHaveBeenLastCalledWith('2g');
    rerender(<SliderField id="m" label="Memory" value="oops" onChange={onChange} scale={memoryScale} />);
    expect((screen.getByLabelText('Memory slider') as HTMLInputElement).value).toBe(at512);
  });
});

describe('ProgressBar', () => {
  it('exposes its value as a percentage and draws with a transform', () => {
    render(<ProgressBar value={0.25} label="Elapsed" valueText="7 of 30 seconds" />);
    const bar = screen.getByRole('progressbar', { name: 'Elapsed' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(bar.getAttribute('aria-valuetext')).toBe('7 of 30 seconds');
    expect((bar.firstElementChild as HTMLElement).style.transform).toBe('scaleX(0.25)');
  });

  it('has no value when indeterminate, and warns as a limit nears', () => {
    render(<ProgressBar value={null} label="Pull" />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    expect([usageTone(0.5), usageTone(0.8), usageTone(0.95)]).toEqual(['accent', 'warn', 'fail']);
  });
});

describe('CopyButton', () => {
  it('copies its text and says so', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyButton text="http://127.0.0.1:7337/mcp" what="endpoint URL" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy endpoint URL' }));
    });
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1:7337/mcp');
    expect(screen.getByRole('button').textContent).toBe('Copied');
    expect(screen.getByText('endpoint URL copied to the clipboard')).toBeTruthy();
  });
});

describe('DiffView', () => {
  it('counts and marks added and removed lines', () => {
    render(<DiffView diff={[{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-old', '+new', ' same'] }]} label="mcp.json" />);
    expect(screen.getByRole('table').getAttribute('aria-label')).toBe('mcp.json: 1 line added, 1 line removed');
    expect(document.querySelector('.diff-add')?.textContent).toContain('new');
    expect(document.querySelector('.diff-del')?.textContent).toContain('old');
  });

  it('numbers each side from the hunk headers the server sent, and keeps "no newline" notes as notes', () => {
    const rows = diffRows([
      { oldStart: 3, oldLines: 2, newStart: 3, newLines: 3, lines: [' a', '-b', '+B', '+c'] },
      { oldStart: 10, oldLines: 1, newStart: 11, newLines: 1, lines: ['-z', '\\ No newline at end of file', '+Z'] },
    ]);
    expect(rows.map((r) => [r.kind, r.oldNo, r.newNo, r.text])).toEqual([
      ['hunk', null, null, '@@ -3,2 +3,3 @@'],
      ['context', 3, 3, 'a'],
      ['del', 4, null, 'b'],
      ['add', null, 4, 'B'],
      ['add', null, 5, 'c'],
      ['hunk', null, null, '@@ -10,1 +11,1 @@'],
      ['del', 10, null, 'z'],
      ['note', null, null, '\\ No newline at end of file'],
      ['add', null, 11, 'Z'],
    ]);
  });
});

describe('Toasts', () => {
  it('shows a toast and dismisses it after a while', () => {
    vi.useFakeTimers();
    render(<Toasts />);
    act(() => {
      useUiStore.getState().toastShown('ok', 'Applied 1 change.');
    });
    expect(screen.getByRole('status').textContent).toContain('Applied 1 change.');
    act(() => {
      vi.advanceTimersByTime(5_100);
    });
    expect(screen.queryByText('Applied 1 change.')).toBeNull();
  });
});
