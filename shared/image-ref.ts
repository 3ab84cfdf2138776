// Image references as the OCI distribution grammar defines them (name[:tag][@digest]). Checked before any
// runtime is called, so a setting can never reach the runtime's argv as a flag (`--privileged`) or as more
// than one argument.
import { z } from 'zod';

// The grammar of distribution/reference, written out: a domain (with an optional port) may lead the name;
// path components are lower case, joined by `.`, `_`, `__` or runs of `-`.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^${NAME}(?::${TAG})?(?:@${DIGEST})?$`);

/** The reference grammar allows 255 characters for the name; a whole reference with tag and digest fits in 512. */
const MAX_REFERENCE_LENGTH = 512;

/** Why `value` is not an image reference, or null when it is one. */
export function imageReferenceProblem(value: string): string | null {
  if (value.length === 0) return 'must name an image';
  if (value.startsWith('-')) return 'must be an image reference, not a flag (it starts with "-")';
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(value)) return 'must be an image reference without spaces or control characters';
  if (value.length > MAX_REFERENCE_LENGTH) return `must be an image reference of at most ${MAX_REFERENCE_LENGTH} characters`;
  if (!REFERENCE_RE.test(value)) return 'must be an image reference such as python:3.14-slim or localhost/sandbar-python:test';
  return null;
}

export function isImageReference(value: string): boolean {
  return imageReferenceProblem(value) === null;
}

/** The settings' and the control API's image field: trimmed, then checked against the grammar. */
export const ImageReferenceSchema = z
  .string({ error: 'must name an image' })
  .trim()
  .superRefine((value, ctx) => {
    const problem = imageReferenceProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
