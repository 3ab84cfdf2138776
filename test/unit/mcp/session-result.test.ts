// A session call's result shape and who a session answers to.
import { describe, expect, it } from 'vitest';
import { callerCredential, clientTokenAuth } from '../../../electron/mcp/caller.js';
import { withSession } from '../../../electron/mcp/session-result.js';
import { CHECKPOINT_FORM, checkRunPythonArgs } from '../../../electron/mcp/run-python-args.js';
import { parseSessionRequest } from '../../../shared/sessions.js';

const id = 'c0ffee'.padEnd(32, '0');

describe('session results', () => {
  it('puts `session: <id>` first, keeps the rest, and adds structuredContent.session', () => {
    const shaped = withSession(
      { content: [{ type: 'text', text: 'hello' }, { type: 'image', data: 'AA==', mimeType: 'image/png' }], structuredContent: { status: 'success' }, isError: false },
      { id, calls: 3, idleExpiresInSec: 600, checkpoints: [2, 3] },
    );
    expect(shaped.content[0]).toEqual({ type: 'text', text: `session: ${id}\nhello` });
    expect(shaped.content[1]).toMatchObject({ type: 'image' });
    expect(shaped.structuredContent).toEqual({ status: 'success', session: { id, calls: 3, idleExpiresInSec: 600, checkpoints: [2, 3] } });
  });

  it('says on the second line why a call ended its session, and adds no structuredContent where there was none', () => {
    const shaped = withSession({ content: [{ type: 'text', text: 'status: timeout' }], isError: true }, { id, calls: 0, idleExpiresInSec: 0, checkpoints: [], ended: 'its call 2 timed out' });
    expect((shaped.content[0] as { text: string }).text.split('\n')).toEqual([`session: ${id}`, 'session ended: its call 2 timed out', 'status: timeout']);
    expect(shaped).not.toHaveProperty('structuredContent');
    expect(shaped.isError).toBe(true);
  });

  it('says a checkpoint note (dropped for memory, threads) on its own line after the session line', () => {
    const shaped = withSession({ content: [{ type: 'text', text: 'ok' }], structuredContent: { status: 'success' } }, { id, calls: 4, idleExpiresInSec: 600, checkpoints: [3, 4], note: 'checkpoint of call 2 dropped' });
    expect((shaped.content[0] as { text: string }).text.split('\n')).toEqual([`session: ${id}`, 'session note: checkpoint of call 2 dropped', 'ok']);
  });

  it('binds to the caller: a fingerprint of the bearer token over HTTP, else the stdio connection', () => {
    const a = callerCredential(clientTokenAuth('a'.repeat(64)), 'c1');
    const b = callerCredential(clientTokenAuth('b'.repeat(64)), 'c1');
    expect(a).toMatch(/^client-token:[0-9a-f]{32}$/);
    expect(a).not.toContain('a'.repeat(64));
    expect(a).not.toBe(b);
    expect(callerCredential(clientTokenAuth('a'.repeat(64)), 'c2')).toBe(a);
    expect(callerCredential(undefined, 'c1')).toBe('stdio:c1');
    expect(callerCredential(undefined, 'c2')).not.toBe(callerCredential(undefined, 'c1'));
  });

  it('takes `session` as a string only (the registry judges its value)', () => {
    const limits = { maxTimeoutSec: 120, maxCodeBytes: 1024 };
    expect(checkRunPythonArgs({ code: 'x', session: 'new' }, limits)).toMatchObject({ ok: true, request: { session: 'new' } });
    expect(checkRunPythonArgs({ code: 'x' }, limits)).toEqual({ ok: true, request: { code: 'x', servers: [], packages: [] } });
    expect(checkRunPythonArgs({ code: 'x', session: ['new'] }, limits)).toEqual({ ok: false, kind: 'schema', message: "Input validation error: ['new'] is not of type 'string'" });
  });

  it('takes a step back as "<id>@<n>" and tells how it is written when it is not', () => {
    const limits = { maxTimeoutSec: 120, maxCodeBytes: 1024 };
    expect(checkRunPythonArgs({ code: 'x', session: `${id}@2` }, limits)).toMatchObject({ ok: true, request: { session: `${id}@2` } });
    for (const bad of [`${id}@0`, `${id}@`, `${id}@-1`, `${id}@2.5`, `${id}@x`, 'abc@2', `${id}@1@2`, `${id}@ 2`, `${id}@1234567890`]) {
      expect(checkRunPythonArgs({ code: 'x', session: bad }, limits)).toEqual({ ok: false, kind: 'validation', message: CHECKPOINT_FORM });
    }
    expect(CHECKPOINT_FORM).toContain('"<id>@<n>"');
    // A malformed id without @ is left to the registry, which calls it unknown without a lookup.
    expect(checkRunPythonArgs({ code: 'x', session: 'abc' }, limits)).toMatchObject({ ok: true });
  });

  it('parses `session` into new, continue (with the call to step back to) or malformed', () => {
    expect(parseSessionRequest('new')).toEqual({ kind: 'new' });
    expect(parseSessionRequest(id)).toEqual({ kind: 'continue', id });
    expect(parseSessionRequest(`${id}@12`)).toEqual({ kind: 'continue', id, at: 12 });
    expect(parseSessionRequest(`${id.toUpperCase()}@1`)).toEqual({ kind: 'malformed', checkpoint: true });
    expect(parseSessionRequest('NEW')).toEqual({ kind: 'malformed', checkpoint: false });
  });
});
