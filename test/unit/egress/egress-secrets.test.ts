// Secrets for egress: read from the settings, Sandbar's environment or a file; the sandbox gets a
// placeholder; the header goes only to the secret's hosts, replacing the code's own; problems are named
// without the value; plain HTTP carries a credential only to this computer's loopback.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayInjectOverPlainHttp, placeholderEnv, placeholderOf, resolveSecrets, secretFor, withSecretHeader } from '../../../electron/egress/egress-secrets.js';
import { SecretsSchema, type SecretSettings } from '../../../shared/egress-settings.js';

const secrets = (raw: unknown): SecretSettings => SecretsSchema.parse(raw);
const readFile = (file: string) => readFileSync(file, 'utf8');

describe('egress secrets', () => {
  it('reads a value, a variable of Sandbar\'s environment and a file (its last newline dropped)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-secret-'));
    writeFileSync(path.join(dir, 'key'), 'from-file\n');
    const { secrets: resolved, problems } = resolveSecrets(
      secrets({
        TYPED: { value: 'typed-value', hosts: ['a.example.com'] },
        FROM_ENV: { env: 'HOST_KEY', hosts: ['b.example.com'], header: 'X-Api-Key: {secret}' },
        FROM_FILE: { file: path.join(dir, 'key'), hosts: ['c.example.com:8443'], header: 'Authorization: token {secret}' },
      }),
      { env: { HOST_KEY: 'env-value' }, readFile },
    );
    expect(problems).toEqual([]);
    expect(resolved.map((s) => [s.name, s.headerName, s.headerValue])).toEqual([
      ['TYPED', 'Authorization', 'Bearer typed-value'],
      ['FROM_ENV', 'X-Api-Key', 'env-value'],
      ['FROM_FILE', 'Authorization', 'token from-file'],
    ]);
  });

  it('names what is wrong with a secret, never its value', () => {
    const { secrets: resolved, problems } = resolveSecrets(
      secrets({
        MISSING_ENV: { env: 'NOT_SET', hosts: ['a.example.com'] },
        MISSING_FILE: { file: '/nonexistent/sandbar/key', hosts: ['a.example.com'] },
        TWO_LINES: { value: 'line-one\nline-two', hosts: ['a.example.com'] },
        HUGE: { value: 'x'.repeat(9000), hosts: ['a.example.com'] },
      }),
      { env: {}, readFile },
    );
    expect(resolved).toEqual([]);
    expect(problems).toEqual([
      "secret MISSING_ENV: the variable NOT_SET is not set in Sandbar's environment",
      'secret MISSING_FILE: cannot read /nonexistent/sandbar/key (ENOENT)',
      'secret TWO_LINES: the value has a line break or NUL, which cannot go in a header',
      'secret HUGE: the value is larger than 8192 bytes',
    ]);
    expect(problems.join('\n')).not.toContain('line-one');
  });

  it('gives the sandbox placeholders only', () => {
    expect(placeholderEnv(secrets({ API_KEY: { value: 'real', hosts: ['a.example.com'] } }))).toEqual({ API_KEY: placeholderOf('API_KEY') });
    expect(placeholderOf('API_KEY')).not.toContain('real');
  });

  it('finds the secret for its hosts only: name, wildcard, port, literal', () => {
    const { secrets: resolved } = resolveSecrets(
      secrets({
        ONE: { value: 'v1', hosts: ['api.example.com'] },
        TWO: { value: 'v2', hosts: ['*.example.org:443'] },
        LOCAL: { value: 'v3', hosts: ['127.0.0.1:8443'] },
      }),
      { env: {}, readFile },
    );
    expect(secretFor(resolved, 'API.example.com', 443)?.name).toBe('ONE');
    expect(secretFor(resolved, 'x.api.example.com', 443)).toBeUndefined();
    expect(secretFor(resolved, 'files.example.org', 443)?.name).toBe('TWO');
    expect(secretFor(resolved, 'files.example.org', 80)).toBeUndefined();
    expect(secretFor(resolved, 'example.org', 443)).toBeUndefined();
    expect(secretFor(resolved, '127.0.0.1', 8443)?.name).toBe('LOCAL');
    expect(secretFor(resolved, 'evil.example.net', 443)).toBeUndefined();
  });

  it('replaces the code\'s own header of that name, whatever its case, and leaves a placeholder elsewhere alone', () => {
    const [secret] = resolveSecrets(secrets({ API_KEY: { value: 'real', hosts: ['api.example.com'] } }), { env: {}, readFile }).secrets;
    const headers = withSecretHeader({ authorization: `Bearer ${placeholderOf('API_KEY')}`, 'x-other': placeholderOf('API_KEY'), accept: 'application/json' }, secret!);
    expect(headers).toEqual({ Authorization: 'Bearer real', 'x-other': placeholderOf('API_KEY'), accept: 'application/json' });
  });

  it('adds a credential over plain HTTP only for this computer\'s loopback', () => {
    expect(mayInjectOverPlainHttp('127.0.0.1')).toBe(true);
    expect(mayInjectOverPlainHttp('127.8.9.1')).toBe(true);
    expect(mayInjectOverPlainHttp('::1')).toBe(true);
    expect(mayInjectOverPlainHttp('10.0.0.1')).toBe(false);
    expect(mayInjectOverPlainHttp('93.184.216.34')).toBe(false);
  });
});
