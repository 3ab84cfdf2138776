// When an existing entry counts as current, which secrets a preview hides, and how.
import { describe, expect, it } from 'vitest';
import { changeDiff, diffText, maskSecret, maskSecrets } from '../../../electron/clients/change-diff.js';
import { CLIENT_FORMATS, entryMatches, entrySecrets } from '../../../electron/clients/client-formats.js';
import { targets, TOKEN, URL_NOW } from './helpers.js';

describe('entryMatches', () => {
  const wanted = CLIENT_FORMATS.cursor.entry(targets());

  it('accepts keys the user or client added, and nothing that differs', () => {
    expect(entryMatches({ ...wanted, disabled: false, headers: { Authorization: `Bearer ${TOKEN}`, 'X-Trace': '1' } }, wanted)).toBe(true);
    expect(entryMatches({ ...wanted, url: 'http://127.0.0.1:1/mcp' }, wanted)).toBe(false);
    expect(entryMatches({ url: URL_NOW }, wanted)).toBe(false);
    expect(entryMatches({ command: 'sandbar', args: ['stdio'] }, wanted)).toBe(false);
    expect(entryMatches(undefined, wanted)).toBe(false);
  });

  it('compares argument lists exactly', () => {
    const stdio = CLIENT_FORMATS['claude-desktop'].entry(targets());
    expect(entryMatches({ ...stdio }, stdio)).toBe(true);
    expect(entryMatches({ ...stdio, args: ['stdio', '--verbose'] }, stdio)).toBe(false);
  });
});

describe('masking', () => {
  it('shows the last four characters of long secrets only', () => {
    expect(maskSecret(TOKEN)).toBe('••••Zq7W');
    expect(maskSecret('short-secret')).toBe('••••');
  });

  it('masks every secret, including an old token kept in an entry’s headers', () => {
    const old = { url: 'u', headers: { Authorization: 'Bearer old-token-abcdefghijklmnop', 'X-Key': 'k3y-value-0000000000' } };
    expect(entrySecrets(old)).toEqual(['old-token-abcdefghijklmnop', 'k3y-value-0000000000']);
    expect(entrySecrets({ command: 'x' })).toEqual([]);
    const masked = maskSecrets('a old-token-abcdefghijklmnop b k3y-value-0000000000 c', entrySecrets(old));
    expect(masked).toBe('a ••••mnop b ••••0000 c');
  });

  it('diffs the real text and masks the result; no change gives no diff', () => {
    const before = '{\n  "mcpServers": {}\n}\n';
    const after = `{\n  "mcpServers": { "sandbar": { "headers": { "Authorization": "Bearer ${TOKEN}" } } }\n}\n`;
    const diff = diffText(changeDiff('/h/mcp.json', before, after, [TOKEN]));
    expect(diff).toContain('-  "mcpServers": {}');
    expect(diff).toContain('+  "mcpServers": { "sandbar": { "headers": { "Authorization": "Bearer ••••Zq7W" } } }');
    expect(diff).not.toContain(TOKEN);
    expect(changeDiff('/h/mcp.json', before, before, [TOKEN])).toEqual([]);
  });
});
