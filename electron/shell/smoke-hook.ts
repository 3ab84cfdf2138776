// The desktop smoke test's hook (npm run test:electron): when honoured, main.ts appends what only the
// main process sees (console messages from the first byte on, the history driver, second-instance
// hand-overs, quit clean-up) as JSON lines to a report file. It only reports: it adds no IPC channel, no
// window, no permission, and it is never honoured in a packaged app.
import type { PlatformPath } from 'node:path';

export const SMOKE_REPORT_ENV = 'SANDBAR_SMOKE_REPORT';

export type SmokeHookDecision =
  | { enabled: true; file: string }
  /** `refused` says why a set variable was ignored (logged, so a mistaken setup is visible); absent when unset. */
  | { enabled: false; refused?: string };

export interface SmokeHookInput {
  env: NodeJS.ProcessEnv;
  /** `app.isPackaged`: installed builds never honour the hook. */
  isPackaged: boolean;
  /** The resolved SANDBAR_HOME. */
  home: string;
  /** `path` for this platform (posix or win32), passed in so both are tested anywhere. */
  path: Pick<PlatformPath, 'isAbsolute' | 'resolve' | 'relative' | 'sep'>;
}

/**
 * Honoured only from a checkout (`electron .`), only with SANDBAR_HOME set explicitly (the test's temporary
 * home, never the user's default one), and only for a file inside that home: it cannot be pointed at
 * anything the app would not write to anyway.
 */
export function smokeHookFrom(input: SmokeHookInput): SmokeHookDecision {
  const raw = input.env[SMOKE_REPORT_ENV];
  if (raw === undefined || raw === '') return { enabled: false };
  if (input.isPackaged) return { enabled: false, refused: `${SMOKE_REPORT_ENV} is ignored in a packaged app` };
  if (!input.env.SANDBAR_HOME) return { enabled: false, refused: `${SMOKE_REPORT_ENV} needs SANDBAR_HOME set to a test home` };
  const p = input.path;
  if (!p.isAbsolute(raw)) return { enabled: false, refused: `${SMOKE_REPORT_ENV} must be an absolute path` };
  const file = p.resolve(raw);
  const inside = p.relative(p.resolve(input.home), file);
  if (inside === '' || inside.startsWith('..') || p.isAbsolute(inside) || inside.includes(p.sep)) {
    return { enabled: false, refused: `${SMOKE_REPORT_ENV} must name a file directly inside SANDBAR_HOME` };
  }
  return { enabled: true, file };
}

/** One line of the report. `at` is milliseconds since the epoch. */
export type SmokeEvent =
  | { event: 'booted'; pid: number; historyDriver: string | null; endpoint: string | null }
  | { event: 'console'; level: string; message: string; source: string; line: number }
  | { event: 'second-instance' }
  | { event: 'second-instance-exit'; pid: number }
  | { event: 'home-in-use'; line: string }
  | { event: 'quitting' }
  | { event: 'disposed'; error: string | null };

export type SmokeReport = (entry: SmokeEvent) => void;

/** Appends one JSON line per event; a write that fails is dropped (the report must never break the app). */
export function smokeReporter(append: (line: string) => void, now: () => number = Date.now): SmokeReport {
  return (entry) => {
    try {
      append(`${JSON.stringify({ ...entry, at: now() })}\n`);
    } catch {
      // The smoke test notices a missing line; the app carries on.
    }
  };
}

/** Reads a report back: one event per line, ignoring a torn last line (the app may be writing it). */
export function parseSmokeReport(text: string): (SmokeEvent & { at: number })[] {
  const events: (SmokeEvent & { at: number })[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === 'object' && value !== null && typeof (value as { event?: unknown }).event === 'string') events.push(value as SmokeEvent & { at: number });
    } catch {
      // Torn or foreign line: not an event.
    }
  }
  return events;
}
