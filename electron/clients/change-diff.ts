// The unified diff a preview shows. It goes to the panel (and over HTTP), so Sandbar's bearer token and
// any token an old entry carried are masked; the file itself gets the real values.
import { createTwoFilesPatch } from 'diff';

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

/** '' when nothing changes. */
export function changeDiff(file: string, before: string, after: string, secrets: readonly string[]): string {
  if (before === after) return '';
  return maskSecrets(createTwoFilesPatch(file, file, before, after, undefined, undefined, { context: 3 }), secrets);
}
