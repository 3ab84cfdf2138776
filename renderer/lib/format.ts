// Times, durations and sizes as people read them, in the user's own locale.
import { displayLine, displayText, DISPLAY_LIMITS } from '../../shared/display-text.js';
import { formatBytes } from '../../shared/limits.js';

export { formatBytes };

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** A clock time (today's runs) in the user's locale. */
export function formatTime(epochMs: number): string {
  return timeFormat.format(epochMs);
}

export function formatDateTime(epochMs: number): string {
  return dateTimeFormat.format(epochMs);
}

export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** 850 ms, 12.3 s, 2 min 5 s, 1 h 4 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${formatNumber(Math.floor(s * 10) / 10)} s`;
  const totalS = Math.floor(s);
  const m = Math.floor(totalS / 60);
  if (m < 60) return `${m} min ${totalS % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Elapsed seconds in a form that does not change width every tick (tabular figures do the rest). */
export function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** "code line one…" for a one-line preview (the agent's code, through the shared sanitiser). */
export function firstLine(code: string, max = 80): string {
  const line = code.split('\n').find((l) => displayLine(l, max) !== '') ?? '';
  // Indentation stays; whatever else the line holds goes through the sanitiser.
  return displayText(line, { multiline: true, maxChars: max }).replace(/\n/g, ' ');
}

/** `claude-code 1.2.0` or `cli` (an agent names itself: sanitised). */
export function clientLabel(client: { name: string; version?: string | null } | undefined): string {
  if (!client) return 'unknown client';
  return displayLine(client.version ? `${client.name} ${client.version}` : client.name, 2 * DISPLAY_LIMITS.name);
}
