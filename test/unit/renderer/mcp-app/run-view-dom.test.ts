// @vitest-environment jsdom
// What the View puts on the page from sandbox and agent text: sanitised, as text, never as markup (the
// highlighted code is highlight.js's escaped output); questions with Allow and Deny that answer the
// question shown; a result that replaces the live state.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunViewDom } from '../../../../renderer/mcp-app/run-view-dom.js';
import { resultModel } from '../../../../renderer/mcp-app/result-model.js';

const ESC = '\u001b';
const BIDI = '\u202e';

function mount() {
  document.body.innerHTML = '<main id="root"></main>';
  const actions = { answer: vi.fn(), openLink: vi.fn() };
  const view = new RunViewDom(document.getElementById('root')!, actions);
  const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
  return { view, actions, text };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('RunViewDom', () => {
  it('shows code highlighted but never as markup, and without control characters', () => {
    const { view, text } = mount();
    view.showCode(`print("<img src=x onerror=alert(1)>")${ESC}[2J\nimport os`);
    expect(document.querySelector('.rv-code img')).toBeNull();
    expect(document.querySelector('.rv-code .hljs-keyword')?.textContent).toBe('import');
    expect(text('.rv-code')).toContain('<img src=x onerror=alert(1)>');
    expect(text('.rv-code')).not.toContain(ESC);
  });

  it('shows output and errors as sanitised text', () => {
    const { view, text } = mount();
    view.showOutput(`${ESC}[31mred${ESC}[0m <b>bold</b>\n`, `warn${BIDI}ing\u0007\n`);
    expect(document.querySelector('.rv-stdout b')).toBeNull();
    expect(text('.rv-stdout')).not.toContain(ESC);
    expect(text('.rv-stdout')).toContain('<b>bold</b>');
    // Escape sequences go whole, bidi and control characters too (the shared sanitiser).
    expect(text('.rv-stdout')).toBe('red <b>bold</b>\n');
    expect(text('.rv-stderr')).toBe('warning\n');
    view.showResult(resultModel({ isError: true, content: [], structuredContent: { status: 'error', error: `boom${ESC}]0;title\u0007`, exitReason: 'runtime_error' } }));
    expect(text('.rv-error')).not.toContain(ESC);
    expect(text('.rv-error')).not.toContain('\u0007');
    expect(text('.rv-status')).toMatch(/^runtime error: boom/);
  });

  it('asks each question with Allow and Deny, and the buttons answer that question', () => {
    const { view, actions, text } = mount();
    const question = { id: 'q1', server: 'effects', tool: 'delete_item', args: { name: `x${ESC}[1m` }, codeLine: 'line 1: r = await mcp_effects.delete_item(name="x")', expiresAt: 0 };
    view.showQuestions([question], new Set());
    expect(text('.rv-question-text')).toMatch(/^Code in run_python wants to call effects\/delete_item with /);
    expect(text('.rv-question-text')).not.toContain(ESC);
    const [allow, deny] = [...document.querySelectorAll<HTMLButtonElement>('.rv-question button')];
    expect([allow!.textContent, deny!.textContent]).toEqual(['Allow', 'Deny']);
    allow!.click();
    expect(actions.answer).toHaveBeenCalledWith(question, 'allow-once');
    deny!.click();
    expect(actions.answer).toHaveBeenLastCalledWith(question, 'deny');
    // While an answer is on its way the buttons wait; a result clears the questions.
    view.showQuestions([question], new Set(['q1']));
    expect([...document.querySelectorAll<HTMLButtonElement>('.rv-question button')].every((b) => b.disabled)).toBe(true);
    view.showResult(resultModel({ content: [{ type: 'text', text: 'ok' }], structuredContent: { stdout: ['ok'], exitReason: 'success' } }));
    expect(document.querySelector('.rv-question')).toBeNull();
    expect(text('.rv-stdout')).toBe('ok');
  });

  it('lists artifact links that open through the View, not the network', () => {
    const { view, actions } = mount();
    view.showResult(resultModel({ content: [{ type: 'text', text: 'x' }, { type: 'resource_link', uri: 'sandbar://runs/r/artifacts/out/a.csv', name: 'out/a.csv', mimeType: 'text/csv', size: 2048 }] }));
    const link = document.querySelector<HTMLButtonElement>('.rv-link-button')!;
    expect(document.querySelector('.rv-links a')).toBeNull();
    expect(link.textContent).toBe('out/a.csv');
    expect(document.querySelector('.rv-link-facts')?.textContent).toBe(' text/csv, 2 KiB');
    link.click();
    expect(actions.openLink).toHaveBeenCalledWith(expect.objectContaining({ uri: 'sandbar://runs/r/artifacts/out/a.csv' }));
    view.showArtifact({ uri: 'sandbar://runs/r/artifacts/out/a.csv', name: 'out/a.csv' }, { text: `a,b${ESC}[2J\n1,2` });
    const shown = document.querySelector('.rv-link .rv-artifact-text')?.textContent;
    expect(shown).toBe('a,b\n1,2');
    expect(shown).not.toContain(ESC);
  });
});
