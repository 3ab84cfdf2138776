// The run view, an MCP App: the host renders it beside a run_python call and hands it the call's input
// and result (ext-apps' App class speaks the protocol). While the run goes, and where the host lets the
// View call the server's tools, it polls the app-only status tool for output and questions, and answers
// a question through the app-only answer tool. It follows the host's theme, and reports its size (App's
// autoResize). It reaches nothing but its host: no fetch, no URL outside the document.
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { RUN_VIEW_ANSWER_TOOL, RUN_VIEW_POLL_MS, RUN_VIEW_STATUS_TOOL, type RunViewDecision, type RunViewQuestion, type RunViewStatus } from '../../shared/run-view.js';
import { resultModel, type ResultLink } from './result-model.js';
import { RunViewDom } from './run-view-dom.js';
import './run-view.css';

const app = new App({ name: 'sandbar-run-view', version: '1' }, {}, { autoResize: true });
const root = document.getElementById('run-view')!;

let args: Record<string, unknown> | null = null;
let runId: string | undefined;
let polling = false;
let pollTimer: ReturnType<typeof setTimeout> | undefined;
let questions: RunViewQuestion[] = [];
const answering = new Set<string>();

const view = new RunViewDom(root, { answer, openLink });
view.phase({ kind: 'waiting', text: 'waiting for the call' });

function applyContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

function showInput(input: Record<string, unknown> | undefined): void {
  if (view.hasResult || !input) return;
  if (typeof input.code === 'string') view.showCode(input.code);
  if (typeof input.session === 'string') view.showSession(input.session);
}

const canCallServer = () => app.getHostCapabilities()?.serverTools !== undefined;

function stopPolling(): void {
  polling = false;
  clearTimeout(pollTimer);
}

function startPolling(): void {
  if (polling || !canCallServer() || view.hasResult) return;
  polling = true;
  void poll();
}

async function poll(): Promise<void> {
  if (!polling) return;
  try {
    const result = await app.callServerTool({ name: RUN_VIEW_STATUS_TOOL, arguments: runId ? { runId } : { arguments: args ?? {} } });
    // A host or server without the tool (an older Sandbar, a host that keeps app tools back): just the result then.
    if (result.isError || !result.structuredContent) return stopPolling();
    if (!polling || view.hasResult) return;
    showStatus(result.structuredContent as unknown as RunViewStatus);
  } catch {
    return stopPolling();
  }
  pollTimer = setTimeout(() => void poll(), RUN_VIEW_POLL_MS);
}

function showStatus(status: RunViewStatus): void {
  if (status.runId) runId = status.runId;
  if (status.state === 'queued') view.phase({ kind: 'queued', text: 'queued' });
  else if (status.state === 'running' || status.state === 'finished') view.phase({ kind: 'running', text: status.questions.length ? 'waiting for your answer' : 'running' });
  view.showOutput(status.stdout, status.stderr, status.clipped);
  questions = status.questions;
  for (const id of answering) if (!questions.some((q) => q.id === id)) answering.delete(id);
  view.showQuestions(questions, answering);
}

async function answer(question: RunViewQuestion, decision: RunViewDecision): Promise<void> {
  if (!runId || answering.has(question.id)) return;
  answering.add(question.id);
  view.showQuestions(questions, answering);
  try {
    const result = await app.callServerTool({ name: RUN_VIEW_ANSWER_TOOL, arguments: { runId, approvalId: question.id, decision } });
    const text = (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(' ');
    view.say(text || null);
  } catch (err) {
    view.say(`The answer did not reach Sandbar: ${err instanceof Error ? err.message : String(err)}`);
    answering.delete(question.id);
    view.showQuestions(questions, answering);
  }
}

async function openLink(link: ResultLink): Promise<void> {
  const caps = app.getHostCapabilities();
  try {
    if (link.mimeType?.startsWith('image/') && caps?.serverResources) {
      const read = await app.readServerResource({ uri: link.uri });
      const item = read.contents[0];
      if (item && 'blob' in item) return view.showArtifact(link, { image: `data:${item.mimeType ?? link.mimeType};base64,${item.blob}` });
    }
    if (link.mimeType?.startsWith('text/') && caps?.serverResources) {
      const read = await app.readServerResource({ uri: link.uri });
      const item = read.contents[0];
      if (item && 'text' in item) return view.showArtifact(link, { text: item.text });
      if (item && 'blob' in item) return view.showArtifact(link, { text: new TextDecoder().decode(Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0))) });
    }
    if (caps?.downloadFile) {
      const saved = await app.downloadFile({ contents: [{ type: 'resource_link', uri: link.uri, name: link.name, ...(link.mimeType ? { mimeType: link.mimeType } : {}) }] });
      view.say(saved.isError ? `${link.name} was not saved.` : null);
      return;
    }
    view.say(`This client cannot open ${link.name} here; read ${link.uri} with resources/read.`);
  } catch (err) {
    view.say(`Could not open ${link.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

// Handlers first: the host may send the input and result as soon as the handshake ends.
app.ontoolinputpartial = (params) => showInput(params.arguments);
app.ontoolinput = (params) => {
  args = params.arguments ?? {};
  showInput(params.arguments);
  if (!view.hasResult) view.phase({ kind: 'running', text: 'running' });
  startPolling();
};
app.ontoolresult = (result) => {
  stopPolling();
  view.showResult(resultModel(result));
};
app.ontoolcancelled = (params) => {
  stopPolling();
  if (!view.hasResult) view.phase({ kind: 'cancelled', text: params.reason ? `cancelled: ${params.reason}` : 'cancelled' });
};
app.onhostcontextchanged = (context) => applyContext(context);
app.onteardown = () => {
  stopPolling();
  return {};
};

applyDocumentTheme(window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
app.connect().then(
  () => {
    applyContext(app.getHostContext());
    // Input that arrived during the handshake started no poll: the capabilities were not known yet.
    if (args) startPolling();
  },
  (err: unknown) => view.say(`Not connected to the client: ${err instanceof Error ? err.message : String(err)}`),
);
