// A run_python result (the CallToolResult the host hands the View) as what the View shows: output, the
// exit reason in words, images, artifact links and the session line. Reads every shape the server sends:
// compact or TOON structured content, the copy under `_meta` when images or links came back, a session's
// first text line, and a text-only error (bad arguments). Text is kept raw here: the View sanitises it.
import type { HistoryStatus } from '../../shared/history.js';
import { EXIT_REASONS, type ExitReason } from '../../shared/execution.js';
import { describeExit } from '../features/history/describe-exit.js';
import { formatDuration } from '../lib/format.js';

/** The `_meta` key the server keeps the structured payload under when a result carries images or links. */
export const STRUCTURED_META_KEY = 'sandbar/result';

export interface ResultImage {
  mimeType: string;
  data: string;
}

export interface ResultLink {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  title?: string;
}

export interface ResultModel {
  ok: boolean;
  /** "success", "error (exit 1)", "timed out after 5s", "killed: memory limit", or the error in words. */
  exitWords: string;
  exitReason: ExitReason | null;
  durationMs: number | null;
  stdout: string;
  stderr: string;
  /** The error line when it says more than the exit words (a traceback's last line is in stderr already). */
  error: string | null;
  images: ResultImage[];
  links: ResultLink[];
  /** One line per figure, display or file (and what was not returned), as the result text says them. */
  notes: string[];
  session: { id: string; ended: string | null } | null;
}

interface Payload {
  status?: string;
  summary?: string;
  exitCode?: number;
  stdout?: unknown;
  stderr?: unknown;
  error?: string;
  timeoutSeconds?: number;
  exitReason?: string;
  durationMs?: number;
  session?: { id?: unknown };
}

interface Block {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  size?: number;
  title?: string;
}

const lines = (v: unknown): string => (Array.isArray(v) ? v.filter((l) => typeof l === 'string').join('\n') : typeof v === 'string' ? v : '');
const isExitReason = (v: unknown): v is ExitReason => typeof v === 'string' && (EXIT_REASONS as readonly string[]).includes(v);
const asObject = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function resultModel(result: { content?: unknown; structuredContent?: unknown; isError?: boolean; _meta?: unknown }): ResultModel {
  const blocks = (Array.isArray(result.content) ? result.content : []).filter((b): b is Block => asObject(b) !== null);
  const payload = (asObject(result.structuredContent) ?? asObject(asObject(result._meta)?.[STRUCTURED_META_KEY]) ?? null) as Payload | null;
  const texts = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text!);
  const session = sessionOf(payload, texts[0]);
  const images = blocks.filter((b) => b.type === 'image' && typeof b.data === 'string').map((b) => ({ mimeType: b.mimeType ?? 'image/png', data: b.data! }));
  const links = blocks
    .filter((b) => b.type === 'resource_link' && typeof b.uri === 'string')
    .map((b) => ({ uri: b.uri!, name: b.name ?? b.uri!, ...(b.mimeType ? { mimeType: b.mimeType } : {}), ...(b.size !== undefined ? { size: b.size } : {}), ...(b.title ? { title: b.title } : {}) }));
  // With artifacts, the text after the output is one line per artifact (the server's artifact-content.ts).
  const notes = (images.length || links.length || texts.length > 1 ? texts.slice(1).join('\n') : '').split('\n').filter(Boolean);
  const isError = result.isError === true;
  if (!payload) {
    // Refused before running, without structured content (invalid arguments): the text is the error.
    const text = texts.join('\n').trim() || (isError ? 'The call failed.' : '');
    return { ok: !isError, exitWords: isError ? text.split('\n', 1)[0]! : 'success', exitReason: null, durationMs: null, stdout: isError ? '' : text, stderr: '', error: isError ? text : null, images, links, notes, session };
  }
  const exitReason = isExitReason(payload.exitReason) ? payload.exitReason : null;
  const error = typeof payload.error === 'string' && payload.error !== '' ? payload.error : null;
  const exitWords = exitReason
    ? exitReasonWords(exitReason, payload, error)
    : (error ?? payload.summary ?? (isError ? 'The call failed.' : 'success'));
  return {
    ok: !isError && (exitReason === null || exitReason === 'success'),
    exitWords,
    exitReason,
    durationMs: typeof payload.durationMs === 'number' ? payload.durationMs : null,
    stdout: lines(payload.stdout),
    stderr: lines(payload.stderr),
    // A plain error exit says why in its traceback; Sandbar's own stops and refusals say it here.
    error: error && exitReason !== 'error' && error !== exitReason && exitReason !== 'success' ? error : null,
    images,
    links,
    notes,
    session,
  };
}

/** The panel's words (describe-exit.ts), but for the two a result states less precisely than the history does. */
function exitReasonWords(reason: ExitReason, payload: Payload, error: string | null): string {
  if (reason === 'success') return 'finished';
  // The result carries no exit code for a failed run [compat]: its traceback (stderr) says what happened.
  if (reason === 'error') return payload.exitCode ? `failed (exit ${payload.exitCode})` : 'failed: the code exited with an error';
  return describeExit({ status: reason as HistoryStatus, exitCode: payload.exitCode ?? null, error, timeoutSec: payload.timeoutSeconds ?? null, limits: null });
}

function sessionOf(payload: Payload | null, firstText: string | undefined): ResultModel['session'] {
  const head = /^session: (\S+)(?:\nsession ended: ([^\n]+))?/.exec(firstText ?? '');
  const id = typeof payload?.session?.id === 'string' ? payload.session.id : (head?.[1] ?? null);
  if (!id) return null;
  return { id, ended: head?.[2] ?? null };
}

/** "success · 1.2 s" */
export function exitLine(model: ResultModel): string {
  return model.durationMs !== null && model.exitReason !== null ? `${model.exitWords} · ${formatDuration(model.durationMs)}` : model.exitWords;
}
