// A server entry's environment as the host-exec confirmation shows it: values in full (a person checks what
// will run), except secret-looking ones, and a sentence for each variable that changes which program or
// library is loaded (PATH, LD_*, DYLD_*, NODE_OPTIONS, PYTHON*), since those make a harmless-looking
// command run something else. Pure.

/** Names that usually hold a credential: their values are masked. */
const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASS(?:PHRASE)?$|AUTH|CREDENTIAL|COOKIE|SESSION|PRIVATE|SIGNATURE/i;

/** Well-known credential prefixes (GitHub, GitLab, Slack, OpenAI-style keys, AWS key ids, JWTs). */
const TOKEN_PREFIX = /^(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk-|pk_|rk_|AKIA|ASIA|AIza|eyJ)[A-Za-z0-9_.-]{8,}/;

/** A value that looks like a token: long, one word, letters and digits mixed, no path or spaces. */
export function looksLikeToken(value: string): boolean {
  if (TOKEN_PREFIX.test(value)) return true;
  if (value.length < 24 || !/^[A-Za-z0-9_+/=.-]+$/.test(value) || value.includes('/') || value.includes('.')) return false;
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

export function isSecretLooking(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || looksLikeToken(value);
}

/** What a loader or search-path variable does, in words; null for an ordinary variable. */
export function loaderVariableNote(name: string): string | null {
  const upper = name.toUpperCase();
  if (upper === 'PATH') return 'PATH changes where programs are found: the command may run a different program than its name suggests';
  if (upper.startsWith('LD_')) return `${name} changes how programs load libraries: it can put other code into the command (LD_PRELOAD, LD_LIBRARY_PATH)`;
  if (upper.startsWith('DYLD_')) return `${name} changes how macOS loads libraries: it can put other code into the command`;
  if (upper === 'NODE_OPTIONS' || upper === 'NODE_PATH') return `${name} changes what Node.js loads before the program (--require, --import): it can run other code`;
  if (upper.startsWith('PYTHON')) return `${name} changes what Python loads and from where (PYTHONPATH, PYTHONSTARTUP): it can run other code`;
  return null;
}

export const MASKED = '••••(hidden)';

/** `NAME=value` for each variable (secret-looking values masked) and the notes for loader variables. */
export function describeEnv(env: Record<string, unknown>, quote: (s: string) => string): { assignments: string[]; notes: string[] } {
  const assignments: string[] = [];
  const notes: string[] = [];
  for (const [name, raw] of Object.entries(env)) {
    const value = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '';
    assignments.push(`${quote(name)}=${isSecretLooking(name, value) ? MASKED : quote(value)}`);
    const note = loaderVariableNote(name);
    if (note) notes.push(note);
  }
  return { assignments, notes };
}
