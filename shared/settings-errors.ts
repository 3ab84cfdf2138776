// Settings validation messages a person can act on: a zod error map for the issues a schema left at zod's
// defaults ("Invalid input: expected number, received string"), and field errors keyed by dotted path.
import type { z } from 'zod';

const EXPECTED: Record<string, string> = {
  number: 'must be a number',
  int: 'must be a whole number',
  string: 'must be text',
  boolean: 'must be true or false',
  object: 'must be an object',
  record: 'must be an object',
  array: 'must be a list',
};

function oneOf(values: readonly unknown[]): string {
  const shown = values.map(String);
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/**
 * Per-parse zod error map: `schema.safeParse(value, { error: settingsIssueMessage })`. Messages written in
 * the schema win over it (zod's precedence), so it only fills the gaps.
 */
export function settingsIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return EXPECTED[issue.expected] ?? `must be ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} entries`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}`;
    case 'unrecognized_keys':
      return `unknown setting${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

/** Dotted path (`limits.memory`) → message, one per field; the first issue on a field wins. */
export function settingsFieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const dotted = issue.path.map(String).join('.');
    fields[dotted] ??= issue.message;
  }
  return fields;
}

/** `limits.memory: must be …; httpPort: must be …` for a one-line error message. */
export function describeFieldErrors(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([dotted, message]) => (dotted ? `${dotted}: ${message}` : message))
    .join('; ');
}
