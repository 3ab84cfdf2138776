// The change a preview shows, as hunks (diff's structuredPatch): the panel draws them as they are. They go
// to the panel (and over HTTP), so Sandbar's bearer token and any token an old entry carried are masked;
// the file itself gets the real values.
import { structuredPatch } from 'diff';
import type { DiffHunk } from '../../shared/contract.js';

/** `••••` plus the last four characters, which is enough to tell two tokens apart; short secrets show nothing. */
export function maskSecret(secret: string): string {
  return secret.length >= 16 ? `••••${secret.slice(-4)}` : '••••';
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  // Longest first, so a secret that contains another is masked whole.
  const forms = secrets
    .filter((secret) => secret !== '')
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)].map((form) => ({ form, mask: maskSecret(secret) })))
    .sort((a, b) => b.form.length - a.form.length);
  let masked = text;
  for (const { form, mask } of forms) masked = masked.split(form).join(mask);
  return masked;
}

/** No hunks when nothing changes. */
export function changeDiff(file: string, before: string, after: string, secrets: readonly string[]): DiffHunk[] {
  if (before === after) return [];
  return structuredPatch(file, file, before, after, undefined, undefined, { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines.map((line) => maskSecrets(line, secrets)),
  }));
}

/** The hunks as unified-diff text (what `sandbar`'s messages and tests read). */
export function diffText(hunks: readonly DiffHunk[]): string {
  return hunks.map((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines].join('\n')).join('\n');
}
