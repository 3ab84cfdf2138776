// The View's page: built once, then updated in place as the call's input, live state and result arrive
// (a poll every second must not reset what the person scrolled or selected). Every string that came from
// the sandbox or the agent goes through the shared sanitiser and into textContent; the one exception is
// highlight.js's output, which escapes the code it wraps (the code is sanitised before it goes in).
import { approvalQuestionText } from '../../shared/approvals.js';
import { displayText } from '../../shared/display-text.js';
import { formatBytes } from '../../shared/limits.js';
import type { RunViewDecision, RunViewQuestion } from '../../shared/run-view.js';
import { highlightPython } from '../features/history/highlight.js';
import { exitLine, type ResultLink, type ResultModel } from './result-model.js';

/** The one way sandbox and agent text reaches the page: the shared sanitiser, keeping lines and tabs. */
export const clean = (text: string): string => displayText(text, { multiline: true });

export interface ViewActions {
  answer(question: RunViewQuestion, decision: RunViewDecision): void;
  openLink(link: ResultLink): void;
}

export interface Phase {
  kind: 'waiting' | 'running' | 'queued' | 'done' | 'error' | 'cancelled';
  text: string;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, parent?: HTMLElement): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  parent?.append(node);
  return node;
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export class RunViewDom {
  private readonly status: HTMLElement;
  private readonly session: HTMLElement;
  private readonly code: HTMLElement;
  private readonly questions: HTMLElement;
  private readonly stdout: HTMLElement;
  private readonly stderr: HTMLElement;
  private readonly error: HTMLElement;
  private readonly figures: HTMLElement;
  private readonly links: HTMLElement;
  private readonly notice: HTMLElement;
  private shownCode: string | null = null;
  private shownQuestions = '';
  private shownResult: ResultModel | null = null;

  constructor(
    root: HTMLElement,
    private readonly actions: ViewActions,
  ) {
    const head = el('header', 'rv-head', root);
    el('span', 'rv-title', head).textContent = 'run_python';
    this.status = el('span', 'rv-status', head);
    this.status.setAttribute('role', 'status');
    this.session = el('div', 'rv-session', root);
    this.code = el('pre', 'rv-code', root);
    this.questions = el('div', 'rv-questions', root);
    this.stdout = el('pre', 'rv-stream rv-stdout', root);
    this.stderr = el('pre', 'rv-stream rv-stderr', root);
    this.error = el('p', 'rv-error', root);
    this.figures = el('div', 'rv-figures', root);
    this.links = el('ul', 'rv-links', root);
    this.notice = el('p', 'rv-notice', root);
    for (const node of [this.session, this.stdout, this.stderr, this.error, this.notice]) node.hidden = true;
  }

  phase(phase: Phase): void {
    setText(this.status, phase.text);
    this.status.dataset.kind = phase.kind;
  }

  showCode(code: string): void {
    const text = clean(code);
    if (text === this.shownCode) return;
    this.shownCode = text;
    const highlighted = highlightPython(text);
    const inner = document.createElement('code');
    if (highlighted === null) inner.textContent = text;
    else inner.innerHTML = highlighted;
    this.code.replaceChildren(inner);
  }

  /** `session` as the call asked for it ("new" or an id), until the result names the session. */
  showSession(id: string | null, ended: string | null = null): void {
    this.session.hidden = id === null;
    if (id === null) return;
    setText(this.session, `session: ${clean(id)}${ended ? ` (ended: ${clean(ended)})` : ''}`);
  }

  showOutput(stdout: string, stderr: string, clipped = false): void {
    this.stream(this.stdout, stdout, clipped ? '… (earlier output not shown)\n' : '');
    this.stream(this.stderr, stderr, '');
  }

  showQuestions(questions: readonly RunViewQuestion[], busy: ReadonlySet<string>): void {
    const key = JSON.stringify([questions.map((q) => q.id), [...busy]]);
    if (key === this.shownQuestions) return;
    this.shownQuestions = key;
    this.questions.replaceChildren(...questions.map((q) => this.question(q, busy.has(q.id))));
  }

  showResult(model: ResultModel): void {
    this.shownResult = model;
    this.phase({ kind: model.ok ? 'done' : 'error', text: clean(exitLine(model)) });
    if (model.session) this.showSession(model.session.id, model.session.ended);
    this.showOutput(model.stdout, model.stderr);
    this.showQuestions([], new Set());
    this.error.hidden = model.error === null;
    setText(this.error, model.error ? clean(model.error) : '');
    this.figures.replaceChildren(
      ...model.images.map((image, i) => {
        const img = document.createElement('img');
        img.alt = clean(model.notes[i] ?? `image ${i + 1}`);
        img.src = `data:${image.mimeType};base64,${image.data}`;
        return img;
      }),
    );
    this.links.replaceChildren(...model.links.map((link) => this.link(link)));
  }

  /** An artifact the person opened: an image is shown among the figures, text below its link. */
  showArtifact(link: ResultLink, content: { image?: string; text?: string }): void {
    if (content.image) {
      const img = document.createElement('img');
      img.alt = clean(link.title ?? link.name);
      img.src = content.image;
      this.figures.append(img);
    } else if (content.text !== undefined) {
      const pre = el('pre', 'rv-stream rv-artifact-text');
      pre.textContent = clean(content.text);
      [...this.links.children].find((item) => (item as HTMLElement).dataset.uri === link.uri)?.append(pre);
    }
  }

  say(text: string | null): void {
    this.notice.hidden = text === null;
    setText(this.notice, text ? clean(text) : '');
  }

  get hasResult(): boolean {
    return this.shownResult !== null;
  }

  private stream(node: HTMLElement, text: string, prefix: string): void {
    node.hidden = text === '';
    setText(node, text === '' ? '' : prefix + clean(text));
  }

  private question(q: RunViewQuestion, busy: boolean): HTMLElement {
    const box = el('div', 'rv-question');
    box.dataset.approvalId = q.id;
    el('p', 'rv-question-text', box).textContent = clean(approvalQuestionText(q));
    const buttons = el('div', 'rv-buttons', box);
    const button = (label: string, decision: RunViewDecision) => {
      const b = el('button', `rv-button rv-${decision}`, buttons);
      b.type = 'button';
      b.textContent = label;
      b.disabled = busy;
      b.addEventListener('click', () => this.actions.answer(q, decision));
    };
    button('Allow', 'allow-once');
    button('Deny', 'deny');
    return box;
  }

  private link(link: ResultLink): HTMLElement {
    const item = el('li', 'rv-link');
    item.dataset.uri = link.uri;
    const b = el('button', 'rv-link-button', item);
    b.type = 'button';
    b.textContent = clean(link.title ? `${link.title} (${link.name})` : link.name);
    b.title = clean(link.uri);
    b.addEventListener('click', () => this.actions.openLink(link));
    const facts = [link.mimeType, link.size !== undefined ? formatBytes(link.size) : null].filter(Boolean).join(', ');
    if (facts) el('span', 'rv-link-facts', item).textContent = ` ${clean(facts)}`;
    return item;
  }
}
