// The control router: method check, zod-parsed arguments, error envelopes, and per-connection event order.
import { describe, expect, it, vi } from 'vitest';
import { ControlRouter, zodFields, type MethodImpl, type MethodTable } from '../../../electron/control/router.js';
import type { Logger } from '../../../electron/logger.js';
import { METHOD_NAMES, type EventMessage, type MethodName } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { PoolState } from '../../../shared/execution.js';
import { z } from 'zod';

const stub = <M extends MethodName>() => vi.fn<MethodImpl<M>>();

/** Every method of the contract; `satisfies` makes the compiler insist on all of them and no others. */
function makeTable() {
  return {
    'executions.list': stub<'executions.list'>(),
    'executions.get': stub<'executions.get'>(),
    'executions.facets': stub<'executions.facets'>(),
    'executions.artifact': stub<'executions.artifact'>(),
    'executions.cancel': stub<'executions.cancel'>(),
    'executions.rerun': stub<'executions.rerun'>(),
    'live.snapshot': stub<'live.snapshot'>(),
    'live.setPaused': stub<'live.setPaused'>(),
    'output.subscribe': stub<'output.subscribe'>(),
    'output.unsubscribe': stub<'output.unsubscribe'>(),
    'settings.get': stub<'settings.get'>(),
    'settings.update': stub<'settings.update'>(),
    'settings.previewFlags': stub<'settings.previewFlags'>(),
    'folders.pick': stub<'folders.pick'>(),
    'health.get': stub<'health.get'>(),
    'health.probe': stub<'health.probe'>(),
    'health.tiers': stub<'health.tiers'>(),
    'image.pull': stub<'image.pull'>(),
    'servers.list': stub<'servers.list'>(),
    'servers.tools': stub<'servers.tools'>(),
    'servers.allow': stub<'servers.allow'>(),
    'servers.deny': stub<'servers.deny'>(),
    'servers.restart': stub<'servers.restart'>(),
    'clients.detect': stub<'clients.detect'>(),
    'clients.preview': stub<'clients.preview'>(),
    'clients.configure': stub<'clients.configure'>(),
    'endpoint.info': stub<'endpoint.info'>(),
    'endpoint.token': stub<'endpoint.token'>(),
    'endpoint.rotateToken': stub<'endpoint.rotateToken'>(),
    'approvals.list': stub<'approvals.list'>(),
    'approvals.decide': stub<'approvals.decide'>(),
    'sessions.list': stub<'sessions.list'>(),
    'sessions.close': stub<'sessions.close'>(),
  } satisfies MethodTable;
}

function makeLog() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
}

function setup() {
  const table = makeTable();
  const log = makeLog();
  const router = new ControlRouter(table, log);
  return { table, log, router };
}

const POOL: PoolState = { size: 1, ready: 1, starting: 0, lastError: null, refilling: false };

/** A connection that records what it receives. */
function listen(router: ControlRouter) {
  const received: EventMessage[] = [];
  const connection = router.connect((m) => received.push(m));
  return { connection, received };
}

describe('the method table stub', () => {
  it('covers exactly the contract methods', () => {
    expect(Object.keys(makeTable()).sort()).toEqual([...METHOD_NAMES].sort());
  });
});

describe('zodFields', () => {
  it('keys issues by dotted path, keeps the first message per path, and names root issues (arguments)', () => {
    const schema = z.object({ limits: z.object({ memory: z.string().min(3, 'too short').regex(/^\d/, 'starts with a digit') }) }).strict();
    const result = schema.safeParse({ limits: { memory: 'x' }, extra: 1 });
    expect(result.success).toBe(false);
    const fields = zodFields(result.error!);
    expect(fields['limits.memory']).toBe('too short');
    expect(Object.keys(fields).sort()).toEqual(['(arguments)', 'limits.memory']);
  });

  it('joins array indexes into the path', () => {
    const result = z.object({ status: z.array(z.string()) }).safeParse({ status: ['ok', 7] });
    expect(Object.keys(zodFields(result.error!))).toEqual(['status.1']);
  });
});

describe('ControlRouter.call', () => {
  it('refuses an unknown method with invalid_request and calls nothing', async () => {
    const { router, table } = setup();
    const answer = await router.call('executions.delete', {});
    expect(answer).toEqual({ ok: false, error: { code: 'invalid_request', message: 'Unknown method: executions.delete' } });
    for (const fn of Object.values(table)) expect(fn).not.toHaveBeenCalled();
  });

  it('does not treat inherited object properties as methods', async () => {
    const { router } = setup();
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      const answer = await router.call(name, {});
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe('invalid_request');
    }
  });

  it('refuses missing arguments field by field, naming the method, without calling it', async () => {
    const { router, table } = setup();
    const answer = await router.call('executions.get', {});
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalid_request');
    expect(Object.keys(answer.error.fields ?? {})).toEqual(['id']);
    expect(answer.error.message).toContain('Invalid arguments for executions.get');
    expect(answer.error.message).toContain(`id: ${answer.error.fields!.id}`);
    expect(table['executions.get']).not.toHaveBeenCalled();
  });

  it('refuses a wrongly typed argument and an empty id with the schema message', async () => {
    const { router } = setup();
    const numeric = await router.call('executions.get', { id: 5 });
    expect(numeric.ok).toBe(false);
    if (!numeric.ok) expect(Object.keys(numeric.error.fields ?? {})).toEqual(['id']);

    const empty = await router.call('executions.get', { id: '' });
    expect(empty).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Invalid arguments for executions.get: id: must name an execution', fields: { id: 'must name an execution' } },
    });
  });

  it('refuses a settings patch that is not an object under the field `patch`', async () => {
    const { router, table } = setup();
    const answer = await router.call('settings.update', { patch: 'x' });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(Object.keys(answer.error.fields ?? {})).toEqual(['patch']);
    expect(answer.error.message).toMatch(/^Invalid arguments for settings\.update: patch: /);
    expect(table['settings.update']).not.toHaveBeenCalled();
  });

  it('refuses extra keys on a strict schema', async () => {
    const { router, table } = setup();
    const answer = await router.call('live.setPaused', { paused: true, force: true });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalid_request');
    expect(answer.error.message).toContain('live.setPaused');
    expect(answer.error.message).toContain('force');
    expect(Object.keys(answer.error.fields ?? {})).toHaveLength(1);
    expect(table['live.setPaused']).not.toHaveBeenCalled();
  });

  it('reports nested argument errors by dotted path', async () => {
    const { router } = setup();
    const answer = await router.call('executions.list', { status: ['ok', 3], limit: 0 });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(Object.keys(answer.error.fields ?? {}).sort()).toEqual(['limit', 'status.1']);
  });

  it('passes the parsed arguments (not the raw ones) and answers the value', async () => {
    const { router, table } = setup();
    table['image.pull'].mockImplementation(async ({ image }) => ({ started: true, image: image ?? 'default' }));
    const answer = await router.call('image.pull', { image: '  python:3.14-slim  ' });
    expect(answer).toEqual({ ok: true, value: { started: true, image: 'python:3.14-slim' } });
    expect(table['image.pull']).toHaveBeenCalledWith({ image: 'python:3.14-slim' }, { connectionId: undefined, transport: 'http' });
  });

  it('treats absent arguments as an empty object', async () => {
    const { router, table } = setup();
    table['endpoint.token'].mockReturnValue({ token: 't0k' });
    expect(await router.call('endpoint.token', undefined)).toEqual({ ok: true, value: { token: 't0k' } });
    expect(await router.call('endpoint.token', null)).toEqual({ ok: true, value: { token: 't0k' } });
  });

  it('answers an AppError with its code, message and fields', async () => {
    const { router, log, table } = setup();
    table['settings.update'].mockRejectedValue(new AppError('invalid_config', 'Some settings are invalid', { fields: { 'limits.memory': 'must be at least 32m' } }));
    const answer = await router.call('settings.update', { patch: { limits: { memory: '1k' } } });
    expect(answer).toEqual({ ok: false, error: { code: 'invalid_config', message: 'Some settings are invalid', fields: { 'limits.memory': 'must be at least 32m' } } });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('answers an AppError without fields without a fields key', async () => {
    const { router, table } = setup();
    table['executions.rerun'].mockImplementation(() => {
      throw new AppError('engine_stopped', 'The engine has stopped');
    });
    const answer = await router.call('executions.rerun', { id: 'abc' });
    expect(answer).toEqual({ ok: false, error: { code: 'engine_stopped', message: 'The engine has stopped' } });
    expect(answer.ok === false && 'fields' in answer.error).toBe(false);
  });

  it('answers an unexpected Error as internal, without a stack, and logs the details', async () => {
    const { router, log, table } = setup();
    const err = new Error('disk on fire');
    table['executions.get'].mockRejectedValue(err);
    const answer = await router.call('executions.get', { id: 'x1' });
    expect(answer).toEqual({ ok: false, error: { code: 'internal', message: 'executions.get failed: disk on fire' } });
    if (!answer.ok) expect(answer.error.message).not.toMatch(/\n\s+at /);
    expect(log.error).toHaveBeenCalledTimes(1);
    const logged = log.error.mock.calls[0]![0] as string;
    expect(logged).toContain('executions.get failed');
    expect(logged).toContain(err.stack!.split('\n')[1]!.trim());
  });

  it('answers a thrown non-Error as internal too', async () => {
    const { router, log, table } = setup();
    table['health.probe'].mockImplementation(() => {
      throw 'plain string';
    });
    const answer = await router.call('health.probe', {});
    expect(answer).toEqual({ ok: false, error: { code: 'internal', message: 'health.probe failed: plain string' } });
    expect(log.error).toHaveBeenCalledTimes(1);
  });

  it('hands a live connection id to the method, and undefined for an unknown or closed one', async () => {
    const { router, table } = setup();
    table['output.subscribe'].mockReturnValue(null);
    const { connection } = listen(router);

    await router.call('output.subscribe', { id: 'run-1' }, { connectionId: connection.id, transport: 'ipc' });
    await router.call('output.subscribe', { id: 'run-1' }, { connectionId: 'not-a-connection', transport: 'http' });
    await router.call('output.subscribe', { id: 'run-1' });
    connection.close();
    await router.call('output.subscribe', { id: 'run-1' }, { connectionId: connection.id, transport: 'ipc' });

    const contexts = table['output.subscribe'].mock.calls.map((c) => c[1].connectionId);
    expect(contexts).toEqual([connection.id, undefined, undefined, undefined]);
    // A caller that does not say how it came is treated as HTTP: the least trusted channel.
    expect(table['output.subscribe'].mock.calls.map((c) => c[1].transport)).toEqual(['ipc', 'http', 'http', 'ipc']);
  });
});

describe('ControlRouter connections and events', () => {
  it('gives every connection a distinct id and counts them', () => {
    const { router } = setup();
    const ids = new Set(Array.from({ length: 20 }, () => router.connect(() => {}).id));
    expect(ids.size).toBe(20);
    expect(router.connectionCount).toBe(20);
  });

  it('broadcasts to every connection with seq increasing by one per connection', () => {
    const { router } = setup();
    const a = listen(router);
    router.broadcast('live.changed', { paused: false, pool: POOL, running: 0, queued: 0 });
    router.broadcast('live.changed', { paused: true, pool: POOL, running: 0, queued: 0 });
    const b = listen(router);
    router.broadcast('execution.stats', { samples: [{ id: 'r', memoryBytes: 5 }] });

    expect(a.received.map((m) => [m.event, m.seq])).toEqual([
      ['live.changed', 1],
      ['live.changed', 2],
      ['execution.stats', 3],
    ]);
    expect(b.received).toEqual([{ event: 'execution.stats', seq: 1, data: { samples: [{ id: 'r', memoryBytes: 5 }] } }]);
    expect(a.received[1]!.data).toEqual({ paused: true, pool: POOL, running: 0, queued: 0 });
  });

  it('sendTo reaches one connection only and shares its seq with broadcasts', () => {
    const { router } = setup();
    const a = listen(router);
    const b = listen(router);
    router.sendTo(b.connection.id, 'output.chunk', { id: 'r', stdout: 'hi', stderr: '' });
    router.broadcast('live.changed', { paused: false, pool: POOL, running: 1, queued: 0 });
    router.sendTo('nobody', 'output.chunk', { id: 'r', stdout: 'lost', stderr: '' });

    expect(a.received.map((m) => [m.event, m.seq])).toEqual([['live.changed', 1]]);
    expect(b.received.map((m) => [m.event, m.seq])).toEqual([
      ['output.chunk', 1],
      ['live.changed', 2],
    ]);
  });

  it('drops a connection whose send throws, tells the close listeners, and keeps serving the others', () => {
    const { router, log } = setup();
    const closed = vi.fn();
    router.onConnectionClosed(closed);
    const good = listen(router);
    const badSend = vi.fn(() => {
      throw new Error('window destroyed');
    });
    const bad = router.connect(badSend);

    router.broadcast('live.changed', { paused: false, pool: POOL, running: 0, queued: 0 });
    router.broadcast('live.changed', { paused: false, pool: POOL, running: 0, queued: 1 });

    expect(closed).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledWith(bad.id);
    expect(badSend).toHaveBeenCalledTimes(1);
    expect(router.connectionCount).toBe(1);
    expect(good.received.map((m) => m.seq)).toEqual([1, 2]);
    expect(log.debug).toHaveBeenCalledWith(expect.stringContaining('window destroyed'));
    // Closing the dropped connection later says nothing more.
    bad.close();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('close() tells the listeners once and stops delivery', () => {
    const { router } = setup();
    const closed = vi.fn();
    router.onConnectionClosed(closed);
    const a = listen(router);
    a.connection.close();
    a.connection.close();
    router.broadcast('live.changed', { paused: false, pool: POOL, running: 0, queued: 0 });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledWith(a.connection.id);
    expect(a.received).toEqual([]);
    expect(router.connectionCount).toBe(0);
  });

  it('a removed close listener is not told', () => {
    const { router } = setup();
    const kept = vi.fn();
    const removed = vi.fn();
    router.onConnectionClosed(kept);
    const off = router.onConnectionClosed(removed);
    off();
    router.connect(() => {}).close();
    expect(kept).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
  });
});
