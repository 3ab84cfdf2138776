// Run before the panel loads (bundled by panel-harness.ts for page.addInitScript): a `window.sandbar` preload
// surface, as in Electron, whose history methods are served by HistoryBackend with N runs and whose other
// methods by `others` (the panel's dev fake, renderer/dev/fake-api.ts), so every view of the real build works.
import type { EventName, Events, MethodName, PreloadApi, SandbarApi } from '../../../shared/contract.js';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/contract.js';
import type { ExitReason } from '../../../shared/execution.js';
import { HistoryBackend } from './history-backend.js';

/** The page's global object, as far as the shim touches it (no DOM types: this file is checked for Node too). */
export interface ShimGlobal {
  sandbar?: PreloadApi;
  __historyFake?: { backend: HistoryBackend; startRun(outcome?: ExitReason): string };
  __panelHistoryOptions?: { rows?: number; latencyMs?: number };
}

export function installPreloadShim(target: ShimGlobal, createOthers: () => SandbarApi): void {
  const options = target.__panelHistoryOptions ?? {};
  const backend = new HistoryBackend({ rows: options.rows ?? 100_000, latencyMs: options.latencyMs ?? 0 });
  let others: SandbarApi | null = null;
  const rest = () => (others ??= createOthers());

  const methods = Object.fromEntries(
    METHOD_NAMES.map((m: MethodName) => [
      m,
      async (args: unknown) => {
        try {
          const value = backend.handles(m) ? await backend.call(m, args as Record<string, unknown>) : await rest().call(m, args as never);
          return { ok: true, value };
        } catch (err) {
          const e = err as { code?: string; message?: string; fields?: Record<string, string> };
          return { ok: false, error: { code: e.code ?? 'internal', message: e.message ?? String(err), ...(e.fields ? { fields: e.fields } : {}) } };
        }
      },
    ]),
  ) as unknown as PreloadApi['methods'];

  const events = Object.fromEntries(
    EVENT_NAMES.map((e: EventName) => [
      e,
      (listener: (data: Events[typeof e]) => void) => {
        const offs = [backend.on(e, listener), rest().on(e, listener)];
        return () => offs.forEach((off) => off());
      },
    ]),
  ) as unknown as PreloadApi['events'];

  target.sandbar = { methods, events };
  target.__historyFake = {
    backend,
    startRun: (outcome = 'success') => backend.startRun('import random\nprint(random.random())', [], { name: 'claude-code', version: '2.1.0' }, outcome),
  };
}
