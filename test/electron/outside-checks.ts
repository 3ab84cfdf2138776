// What the desktop smoke test concludes from what it saw, as pure functions: each returns the problems
// found (empty means the check passed), so the judgement is unit-tested without Electron.
import { EVENT_NAMES, METHOD_NAMES } from '../../shared/contract-names.js';
import { APP_ORIGIN, CONTENT_SECURITY_POLICY } from '../../electron/shell/window-options.js';

export interface ConsoleEntry {
  /** Playwright's `type()` ('log', 'warning', 'error', …) or Electron's level ('info', 'warning', 'error', 'debug'). */
  level: string;
  text: string;
  source?: string;
}

/**
 * Errors of any kind fail the smoke test; so do Electron's own security warnings (printed as warnings
 * when a window runs without CSP, with Node integration, and so on).
 */
export function consoleProblems(entries: readonly ConsoleEntry[]): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    const where = entry.source ? ` (${entry.source})` : '';
    if (entry.level === 'error') problems.push(`console error${where}: ${entry.text}`);
    else if (/Electron Security Warning/i.test(entry.text)) problems.push(`Electron security warning${where}: ${entry.text}`);
  }
  return problems;
}

/** A policy as directive → sorted sources, so equal policies compare equal whatever their order. */
export function parseCsp(policy: string): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    directives.set(name.toLowerCase(), [...sources].sort().join(' '));
  }
  return directives;
}

function policyDiff(label: string, actual: Map<string, string>, expected: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, sources] of expected) {
    if (!actual.has(name)) problems.push(`${label}: missing ${name}`);
    else if (actual.get(name) !== sources) problems.push(`${label}: ${name} is '${actual.get(name)}', expected '${sources}'`);
  }
  for (const name of actual.keys()) if (!expected.has(name)) problems.push(`${label}: unexpected directive ${name}`);
  return problems;
}

export interface CspObservation {
  /** The Content-Security-Policy header of app://sandbar/index.html as the app serves it. */
  header: string | null;
  /** The page's <meta http-equiv> policy. */
  meta: string | null;
  /** What `new Function(...)` did in the page: a string-to-code call must be refused under the policy. */
  evalResult: 'allowed' | 'refused';
}

/** The header must be the shell's policy exactly; the meta the same minus frame-ancestors (meta cannot carry it). */
export function cspProblems(seen: CspObservation, expected: string = CONTENT_SECURITY_POLICY): string[] {
  const problems: string[] = [];
  const want = parseCsp(expected);
  if (!seen.header) problems.push('no Content-Security-Policy header on app://sandbar/index.html');
  else problems.push(...policyDiff('header', parseCsp(seen.header), want));
  const wantMeta = new Map(want);
  wantMeta.delete('frame-ancestors');
  if (!seen.meta) problems.push('no Content-Security-Policy <meta> in the page');
  else problems.push(...policyDiff('meta', parseCsp(seen.meta), wantMeta));
  if (seen.evalResult !== 'refused') problems.push('the page could turn a string into code: the policy is not in force');
  return problems;
}

export function windowUrlProblems(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [`the window's URL is not a URL: ${url}`];
  }
  // app: is not a special scheme, so WHATWG URL reports its origin as 'null': compare scheme and host.
  return `${parsed.protocol}//${parsed.host}` === APP_ORIGIN ? [] : [`the window shows ${url}, not a page of ${APP_ORIGIN}`];
}

/** What the page reports about `window.sandbar` and the globals a sandboxed page must not have. */
export interface PreloadSurface {
  /** Own keys of `window.sandbar`. */
  keys: string[];
  /** Own keys of `window.sandbar.methods` → `typeof` each. */
  methods: Record<string, string>;
  events: Record<string, string>;
  /** `typeof` of Node/Electron globals in the page (require, process, module, ipcRenderer, electron, Buffer). */
  globals: Record<string, string>;
}

function nameDiff(label: string, actual: Record<string, string>, expected: readonly string[]): string[] {
  const problems: string[] = [];
  const have = new Set(Object.keys(actual));
  for (const name of expected) {
    if (!have.has(name)) problems.push(`${label}: '${name}' is missing`);
    else if (actual[name] !== 'function') problems.push(`${label}: '${name}' is a ${actual[name]}, not a function`);
  }
  const want = new Set(expected);
  for (const name of have) if (!want.has(name)) problems.push(`${label}: '${name}' is not in the contract`);
  return problems;
}

/** Exactly `{methods, events}`, each exactly the contract's names as functions, and no Node in the page. */
export function preloadProblems(surface: PreloadSurface, contract: { methods: readonly string[]; events: readonly string[] } = { methods: METHOD_NAMES, events: EVENT_NAMES }): string[] {
  const problems: string[] = [];
  const keys = [...surface.keys].sort();
  if (keys.join(',') !== 'events,methods') problems.push(`window.sandbar has keys [${keys.join(', ')}], expected [events, methods]`);
  problems.push(...nameDiff('methods', surface.methods, contract.methods));
  problems.push(...nameDiff('events', surface.events, contract.events));
  for (const [name, type] of Object.entries(surface.globals)) {
    if (type !== 'undefined') problems.push(`the page has a global '${name}' (${type})`);
  }
  return problems;
}

/** `ps -A -o pid= -o ppid=` output → rows. */
export function parsePs(text: string): { pid: number; ppid: number }[] {
  const rows: { pid: number; ppid: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (match) rows.push({ pid: Number(match[1]), ppid: Number(match[2]) });
  }
  return rows;
}

/** Every process below `root` (children, grandchildren, …), not `root` itself. */
export function descendants(root: number, rows: readonly { pid: number; ppid: number }[]): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of rows) {
    if (pid === ppid) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const seen = new Set<number>([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
