// A settings update is bounded before anything reads it: too deep or too large is refused whole, the file
// stays byte-identical, and the next start works. Keys are the schema's own, never inherited ones.
import { describe, expect, it } from 'vitest';
import { MAX_PATCH_BYTES, MAX_PATCH_DEPTH, patchBoundsProblem } from '../../../electron/settings/patch-limits.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { fileText, homeWith, json, refusal, serviceOn } from './settings-helpers.js';

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < depth; i++) node = { a: node };
  return node;
}

const ORIGINAL = json({ poolSize: 3 });

describe('settings patch bounds', () => {
  it('measures depth without recursion and size in bytes', () => {
    expect(patchBoundsProblem(nested(MAX_PATCH_DEPTH))).toBeNull();
    expect(patchBoundsProblem(nested(MAX_PATCH_DEPTH + 1))).toMatch(/nested more than 32 levels/);
    expect(patchBoundsProblem(nested(100_000))).toMatch(/nested/);
    expect(patchBoundsProblem({ image: 'x'.repeat(MAX_PATCH_BYTES) })).toMatch(/at most 262144/);
  });

  it('refuses a 3,000-deep patch, writes nothing, and the next start reads the file as before', () => {
    const home = homeWith(ORIGINAL);
    const err = refusal(() => serviceOn(home).update({ mcpServers: { deep: nested(3000) } }));
    expect(err.code).toBe('invalid_config');
    expect(err.fields).toEqual({ '(update)': expect.stringContaining('nested') });
    expect(fileText(home)).toBe(ORIGINAL);
    expect(serviceOn(home).get()).toEqual({ ...DEFAULT_SETTINGS, poolSize: 3 });
  });

  it('refuses a patch over 256 KiB and writes nothing', () => {
    const home = homeWith(ORIGINAL);
    const err = refusal(() => serviceOn(home).update({ importClients: Array.from({ length: 30_000 }, () => 'claude-desktop') }));
    expect(err.message).toContain('256 KiB');
    expect(fileText(home)).toBe(ORIGINAL);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses %s as a setting (own keys only)', (key) => {
    const home = homeWith(ORIGINAL);
    const patch = JSON.parse(`{"${key}": {"polluted": true}}`) as Record<string, unknown>;
    const err = refusal(() => serviceOn(home).update(patch));
    expect(err.fields).toEqual({ [key]: 'unknown setting' });
    expect(fileText(home)).toBe(ORIGINAL);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses __proto__ as a server name instead of replacing a prototype', () => {
    const home = homeWith(ORIGINAL);
    const err = refusal(() => serviceOn(home).update(JSON.parse('{"serverPolicies": {"__proto__": "deny"}}') as Record<string, unknown>));
    expect(err.fields).toEqual({ 'serverPolicies.__proto__': '"__proto__" cannot be used as a name' });
    expect(fileText(home)).toBe(ORIGINAL);
  });
});
