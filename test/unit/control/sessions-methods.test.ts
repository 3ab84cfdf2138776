// The control API's sessions methods through the real router over a real registry (fake sandboxes):
// list with memory sampled at the call, close by id, bad ids refused before any lookup.
import { describe, expect, it } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { ControlRouter } from '../../../electron/control/router.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { SessionRegistry } from '../../../electron/sessions/session-registry.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function setup() {
  const ended: string[] = [];
  let memory = 1000;
  const registry = new SessionRegistry(
    {
      cannotPause: () => null,
      pause: async () => {},
      resume: async () => {},
      end: async (c) => void ended.push(c.name),
      memory: async (names) => names.map((name) => ({ name, memoryBytes: memory })),
      cancel: () => false,
    },
    () => ({ idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 }),
    { memoryLimit: () => '512m' },
  );
  const router = new ControlRouter(controlMethods({ sessions: registry } as unknown as ControlServices), quiet as never);
  const open = registry.begin({ key: 'token:x', client: { name: 'claude-code', version: '1' } }, 'new');
  if (!open.ok) throw new Error(open.message);
  open.binding.opened({ name: 'sandbar-s1', isAlive: true } as unknown as SandboxContainer);
  open.binding.afterRun({ name: 'sandbar-s1', isAlive: true } as unknown as SandboxContainer, {} as never, 'open');
  return { router, registry, id: open.id, ended, setMemory: (n: number) => (memory = n) };
}

describe('sessions.list and sessions.close', () => {
  it('lists live sessions with their memory sampled now, and ends one by id', async () => {
    const { router, id, ended, setMemory } = setup();
    setMemory(123_456);
    const listed = await router.call('sessions.list', {}, { transport: 'http' });
    expect(listed).toEqual({ ok: true, value: [expect.objectContaining({ id, calls: 1, busy: false, memoryBytes: 123_456, containerName: 'sandbar-s1', client: { name: 'claude-code', version: '1' } })] });
    expect(await router.call('sessions.close', { id }, { transport: 'http' })).toEqual({ ok: true, value: { closed: true } });
    expect(ended).toEqual(['sandbar-s1']);
    expect(await router.call('sessions.close', { id }, { transport: 'http' })).toEqual({ ok: true, value: { closed: false } });
    expect(await router.call('sessions.list', {}, { transport: 'http' })).toEqual({ ok: true, value: [] });
  });

  it('refuses an id that is not 32 hex characters with a field error', async () => {
    const { router, ended } = setup();
    const answer = await router.call('sessions.close', { id: '../../etc' }, { transport: 'http' });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.fields).toEqual({ id: 'must be a session id' });
    expect(ended).toEqual([]);
  });
});
