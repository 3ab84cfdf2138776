// Packages a run asks for (`run_python` `packages`): requirement strings checked before anything reaches a
// command line, and the vocabulary of fetches that history and health show.

/** A distribution name (PEP 508) and optional version clauses (PEP 440 operators), nothing else: no URLs,
 * paths, extras, markers, options or spaces, so a string can never become a pip option or a file. */
const NAME = '[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?';
const CLAUSE = '(?:===|==|>=|<=|~=|!=|<|>)[A-Za-z0-9.*+!_-]+';
const REQUIREMENT = new RegExp(`^(${NAME})(${CLAUSE}(?:,${CLAUSE})*)?$`);

export const MAX_PACKAGES = 32;
export const MAX_REQUIREMENT_LENGTH = 200;

/** PEP 503 normalisation: the name as index URLs spell it. */
export function normalizePackageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

export interface Requirement {
  /** The string as given (it goes to pip after `--`, as one argument). */
  text: string;
  name: string;
  pinned: boolean;
}

/** The requirement, or a message a person (or an agent) can act on. */
export function parseRequirement(text: string): Requirement | { error: string } {
  if (text.length > MAX_REQUIREMENT_LENGTH) return { error: `requirement is longer than ${MAX_REQUIREMENT_LENGTH} characters` };
  const match = REQUIREMENT.exec(text);
  if (!match) {
    return { error: `${JSON.stringify(text)} is not a requirement Sandbar accepts: write a package name, optionally with versions, such as "openpyxl" or "duckdb==1.1.3" (no URLs, paths, extras or options)` };
  }
  const clauses = match[2] ?? '';
  return { text, name: normalizePackageName(match[1] ?? ''), pinned: /^(===|==)[^,*]+$/.test(clauses) };
}

/** What a run asked for and got: recorded with it in history. */
export interface PackagesUsed {
  requirements: string[];
  /** The layer's key; null when the image already had everything. */
  layer: string | null;
  /** No helper container ran: a cached resolution and an existing layer. */
  reused: boolean;
  fetches: PackageFetch[];
}

/** One request the fetch step made for a run: shown in the run's history and the health view. */
export interface PackageFetch {
  at: number;
  /** The upstream URL (index page or file). */
  url: string;
  kind: 'page' | 'file';
  status: 'ok' | 'not_found' | 'refused' | 'failed';
  bytes: number;
  /** For a refusal or failure: why, in words (a hash mismatch names the file and both hashes). */
  detail?: string;
}
