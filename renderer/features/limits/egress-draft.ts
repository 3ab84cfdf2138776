// Pure helpers of Limits › Egress: each typed rule as what it matches (the shared parser's preview) or the
// parser's reason it is not a rule, the draft lists checked with the settings schema itself, and the
// server's field errors (`egress.allow.2`) put back on their rows.
import { describeEgressRule, parseEgressRule } from '../../../shared/egress.js';
import { EgressSchema } from '../../../shared/egress-settings.js';

export type RuleList = 'allow' | 'deny';

export interface EgressDraft {
  allow: string[];
  deny: string[];
}

/** What one typed rule matches, or why it is not a rule (the words the server would answer with). */
export function ruleFeedback(text: string): { preview: string } | { error: string } {
  const rule = parseEgressRule(text);
  return typeof rule === 'string' ? { error: rule } : { preview: describeEgressRule(rule) };
}

/** The lists as they are saved: each rule trimmed. */
export function cleanDraft(draft: EgressDraft): EgressDraft {
  return { allow: draft.allow.map((r) => r.trim()), deny: draft.deny.map((r) => r.trim()) };
}

export interface DraftErrors {
  /** `allow.2` → message. */
  rows: Record<string, string>;
  /** A problem of a whole list (too many rules). */
  lists: string[];
}

/** The draft checked with the settings schema (the same messages as the server). */
export function egressDraftErrors(draft: EgressDraft): DraftErrors {
  const parsed = EgressSchema.safeParse(cleanDraft(draft));
  const errors: DraftErrors = { rows: {}, lists: [] };
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const [list, index] = issue.path;
    if (typeof index === 'number') errors.rows[`${String(list)}.${index}`] ??= issue.message;
    else errors.lists.push(`${String(list ?? 'egress')}: ${issue.message}`);
  }
  return errors;
}

/** Server field errors (`egress.allow.2`, `egress.deny`) as row and list messages. */
export function egressErrorsFromFields(fields: Record<string, string>): DraftErrors {
  const errors: DraftErrors = { rows: {}, lists: [] };
  for (const [key, message] of Object.entries(fields)) {
    const m = /^egress\.(allow|deny)\.(\d+)$/.exec(key);
    if (m) errors.rows[`${m[1]}.${m[2]}`] ??= message;
    else errors.lists.push(`${key}: ${message}`);
  }
  return errors;
}
