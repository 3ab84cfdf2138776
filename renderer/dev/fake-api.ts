// A dev-only SandbarApi with plausible data and a little life (output streams, a run finishes, the pool
// refills), selected by `?fake` (`?fake=broken` for a failing health report, `?fake=empty` for no runs).
// Vite drops it from production builds: the only import is behind `import.meta.env.DEV || MODE === 'fake'`.
import type { EventName, Events, FinishedExecution, MethodArgs, MethodName, MethodResult, SandbarApi } from '../../shared/contract.js';
import type { HistoryItem } from '../../shared/history.js';
import { LimitsSchema, parseSize } from '../../shared/limits.js';
import { parseSettings } from '../../shared/settings.js';
import { settingsFieldErrors } from '../../shared/settings-errors.js';
import { ApiCallError } from '../api/errors.js';
import * as data from './fake-data.js';
import { FAKE_LIVE_EGRESS } from './fake-egress.js';

type Handlers = { [M in MethodName]: (args: MethodArgs<M>) => MethodResult<M> | Promise<MethodResult<M>> };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function merge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' ? merge(out[k] as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

function historyItem(r: FinishedExecution): HistoryItem {
  return {
    id: r.id,
    client: { name: r.client?.name ?? 'cli', version: r.client?.version ?? null },
    transport: r.client?.transport ?? null,
    codePreview: r.code.slice(0, 300),
    servers: r.servers,
    status: r.exitReason,
    exitReason: r.exitReason,
    exitCode: r.exitCode,
    queuedAt: r.queuedAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.durationMs,
    error: r.message ?? null,
    toolCallCount: 0,
    ...(data.FAKE_SESSION_CALLS[r.id] ? { session: data.FAKE_SESSION_CALLS[r.id] } : {}),
  };
}

export function createFakeApi(): SandbarApi {
  const mode = new URLSearchParams(window.location.search).get('fake');
  const now = Date.now();
  const listeners = new Map<string, Set<(d: unknown) => void>>();
  const emit = <E extends EventName>(event: E, payload: Events[E]) => listeners.get(event)?.forEach((l) => l(payload));
  let running = mode === 'empty' ? [] : data.fakeRunning(now);
  let queued = mode === 'empty' ? [] : data.fakeQueued(now);
  const recent = mode === 'empty' ? [] : data.fakeRecent(now);
  let paused = false;
  let pool = { size: 2, ready: 2, starting: 0, lastError: null as string | null, refilling: false };
  let view = data.fakeSettingsView();
  const health = data.fakeHealth(mode === 'broken', now);
  let servers = data.fakeServers();
  let sessions = mode === 'empty' ? [] : data.fakeSessions(now);
  let token = 'sbr_4f9c2e7a1b8d3f6e0a5c9b2d7e4f1a3c';
  const subscribed = new Set<string>();
  let tick = 0;

  const liveChanged = () => emit('live.changed', { paused, pool, running: running.length, queued: queued.length });

  setInterval(() => {
    tick++;
    for (const id of subscribed) {
      if (!running.some((r) => r.id === id)) continue;
      emit('output.chunk', { id, stdout: `${data.FAKE_OUTPUT_LINES[tick % data.FAKE_OUTPUT_LINES.length]}${tick}\n`, stderr: tick % 5 === 0 ? `UserWarning: slow page (${tick})\n` : '' });
    }
    const egress = FAKE_LIVE_EGRESS[tick];
    if (egress && running[0]) emit('execution.egress', { id: running[0].id, record: egress });
    if (tick % 3 === 0) emit('execution.stats', { samples: running.map((r) => ({ id: r.id, memoryBytes: Math.round((r.memoryBytes ?? 24 * 1024 ** 2) * (0.95 + Math.random() * 0.1)) })) });
    // The session in a call finishes it and is paused (frozen) until the next.
    if (tick === 15 && sessions.some((x) => x.busy)) {
      sessions = sessions.map((x) => (x.busy ? { ...x, busy: false, lastCallAt: Date.now(), idleExpiresAt: Date.now() + 10 * 60_000, memoryBytes: 64 * 1024 ** 2 } : x));
      emit('sessions.changed', { sessions });
    }
    // One run hits its memory limit after a while, and the queued one starts.
    if (tick === 25 && running.length > 1) {
      const [dead] = running.splice(1, 1);
      const result: FinishedExecution = { ...data.fakeRecent(Date.now())[1]!, id: dead!.id, code: dead!.code, client: dead!.client, finishedAt: Date.now() };
      emit('execution.finished', { result });
      recent.unshift(result);
      const next = queued.shift();
      if (next) {
        running = [...running, { ...next, startedAt: Date.now(), memoryBytes: null }];
        emit('execution.started', { type: 'started', id: next.id, at: Date.now(), containerName: `sandbar-${next.id}`, warm: true });
      }
      liveChanged();
    }
  }, 400);

  const refillPool = () => {
    pool = { ...pool, ready: 0, starting: pool.size, refilling: true };
    liveChanged();
    for (let i = 1; i <= pool.size; i++) {
      setTimeout(() => {
        pool = { ...pool, ready: i, starting: pool.size - i, refilling: i < pool.size };
        liveChanged();
      }, 1_200 * i);
    }
  };

  const handlers: Handlers = {
    'executions.list': () => ({ items: recent.map(historyItem), nextCursor: null }),
    'executions.get': ({ id }) => {
      const r = recent.find((x) => x.id === id);
      if (!r) return null;
      const { codePreview: _preview, ...item } = historyItem(r);
      return {
        ...item,
        code: r.code,
        limits: r.limits,
        timeoutSec: r.timeoutSec,
        stdout: '3.4\n',
        stderr: '',
        stdoutTruncated: false,
        stderrTruncated: false,
        containerName: `sandbar-${r.id}`,
        toolCalls: [],
        artifacts: r.artifacts ?? [],
        refusedArtifacts: r.refusedArtifacts ?? [],
        packages: null,
        approvals: [],
        folders: [],
        egress: r.egress ?? [],
        egressDropped: r.egressDropped ?? 0,
      };
    },
    'executions.artifact': ({ runId, name }) => {
      const found = data.fakeArtifact(runId, name);
      if (!found) throw new ApiCallError({ code: 'invalid_request', message: `No artifact '${name}' of execution ${runId} in the history` });
      return found;
    },
    'executions.facets': () => ({ clients: ['claude-code', 'cursor'], servers: ['github'], statuses: ['success', 'error', 'timeout', 'memory', 'cancelled', 'output_limit'] }),
    'executions.cancel': ({ id }) => {
      const was = running.find((r) => r.id === id) ?? queued.find((q) => q.id === id);
      if (!was) return { cancelled: false };
      running = running.filter((r) => r.id !== id);
      queued = queued.filter((q) => q.id !== id);
      const result = { ...data.fakeRecent(Date.now())[4]!, id, code: was.code, client: was.client, finishedAt: Date.now() };
      recent.unshift(result);
      emit('execution.finished', { result });
      liveChanged();
      return { cancelled: true };
    },
    'executions.rerun': () => ({ id: `r-${Date.now().toString(16)}` }),
    'live.snapshot': () => ({ running, queued, recent: recent.slice(0, 20), pool, paused, memoryLimitBytes: parseSize(view.settings.limits.memory) }),
    'live.setPaused': ({ paused: p }) => {
      paused = p;
      liveChanged();
      return { paused };
    },
    'output.subscribe': ({ id }) => {
      subscribed.add(id);
      return running.some((r) => r.id === id) ? { id, stdout: 'loading issues…\n', stderr: '', clipped: false } : null;
    },
    'output.unsubscribe': ({ id }) => {
      subscribed.delete(id);
      return { ok: true };
    },
    'settings.get': () => view,
    'settings.update': ({ patch }) => {
      const parsed = parseSettings(merge(view.settings as unknown as Record<string, unknown>, patch));
      if (!parsed.success) throw new ApiCallError({ code: 'invalid_config', message: 'Some settings are not valid.', fields: settingsFieldErrors(parsed.error) });
      const changed = Object.entries(patch).flatMap(([k, v]) => (v && typeof v === 'object' ? Object.keys(v).map((s) => `${k}.${s}`) : [k]));
      view = { ...view, settings: parsed.data };
      emit('settings.changed', { settings: parsed.data, changed });
      setTimeout(refillPool, 300);
      return { settings: parsed.data, changed };
    },
    'folders.pick': () => ({ path: '/home/me/Downloads/csv' }),
    'settings.previewFlags': ({ limits }) => {
      const parsed = LimitsSchema.safeParse(limits);
      if (!parsed.success) throw new ApiCallError({ code: 'invalid_config', message: 'Invalid limits.', fields: Object.fromEntries(Object.entries(settingsFieldErrors(parsed.error)).map(([k, v]) => [`limits.${k}`, v])) });
      const l = parsed.data;
      const tmpfs = (dir: string, size: string) => ['--tmpfs', `${dir}:rw,noexec,nosuid,nodev,size=${size}`];
      return {
        argv: ['podman', 'run', '--rm', '-i', '--init', '--network', 'none', '--read-only', ...tmpfs('/tmp', l.tmpSize), ...tmpfs('/workspace', l.workspaceSize), '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--security-opt', 'seccomp=sandbar.json', '--user', l.user, '--memory', l.memory, '--memory-swap', l.memory, '--pids-limit', String(l.pids), ...(l.cpus === null ? [] : ['--cpus', String(l.cpus)]), '--workdir', '/workspace', view.settings.image],
      };
    },
    'health.get': () => health,
    'health.probe': async () => {
      await wait(2_500);
      const report = { ...health, checkedAt: Date.now(), probedAt: Date.now() };
      emit('health.changed', report);
      return report;
    },
    'health.tiers': async () => {
      await wait(3_000);
      const limits = (pids: 'enforced' | 'exception') => ({
        memory: { state: 'enforced' as const, detail: 'killed at 512m' },
        pids: pids === 'enforced' ? { state: 'enforced' as const, detail: 'stopped at 128' } : { state: 'exception' as const, detail: 'started 300 processes under a limit of 128', reason: 'gVisor: processes inside the sandbox are not host pids.' },
        network: { state: 'enforced' as const, detail: 'no route' },
        readOnlyRoot: { state: 'enforced' as const, detail: 'EROFS' },
        capabilities: { state: 'enforced' as const, detail: 'none' },
        seccomp: { state: 'enforced' as const, detail: 'EPERM' },
      });
      const caps = (isolation: 'runc' | 'runsc') => ({ backend: 'podman' as const, isolation, rootless: true, lifetimeBackstop: true, pauseResume: true, checkpoints: isolation === 'runsc' ? 'under gVisor the relay cannot adopt the process that holds a checkpoint, so a session there keeps none' : (true as const), limits: limits(isolation === 'runsc' ? 'exception' : 'enforced') });
      return [
        { runtime: 'podman', isolation: 'runc', capabilities: caps('runc') },
        { runtime: 'podman', isolation: 'runsc', capabilities: caps('runsc') },
        { runtime: 'docker', isolation: 'runc', error: `the image ${health.image.name} is not present in docker` },
      ];
    },
    'image.pull': ({ image }) => {
      const name = image ?? health.image.name;
      for (let i = 1; i <= 10; i++) {
        setTimeout(() => emit('image.pullProgress', { image: name, phase: i === 10 ? 'done' : 'pulling', line: i === 10 ? 'Writing manifest to image destination' : `Copying blob 8a1e25ce7c4f: ${i * 3}.1MiB / 30.4MiB`, fraction: i / 10, error: null }), i * 500);
      }
      return { started: true, image: name };
    },
    'servers.list': () => servers,
    'servers.tools': async ({ name }) => {
      await wait(400);
      if (name === 'slack') throw new ApiCallError({ code: 'runtime_failed', message: 'slack exited with code 1: Error: SLACK_BOT_TOKEN is not set' });
      return data.FAKE_TOOLS;
    },
    'servers.allow': ({ name }) => (servers = servers.map((s) => (s.name === name ? { ...s, policy: 'allow' } : s))),
    'servers.deny': ({ name }) => (servers = servers.map((s) => (s.name === name ? { ...s, policy: 'deny' } : s))),
    'servers.restart': ({ name }) => (servers = servers.map((s) => (s.name === name ? { ...s, state: 'starting', lastError: null } : s))),
    'clients.detect': () => data.fakeClients(),
    'clients.preview': ({ id, action }) => ({ id, action, file: data.fakeClients().find((c) => c.id === id)!.file, diff: data.FAKE_DIFF, changed: true, modeChange: { from: '0644', to: '0600' }, summary: data.FAKE_SUMMARY }),
    'clients.configure': ({ id, action }) => ({ id, action, file: data.fakeClients().find((c) => c.id === id)!.file, diff: data.FAKE_DIFF, changed: true, modeChange: { from: '0644', to: '0600' }, summary: data.FAKE_SUMMARY, backup: `${data.fakeClients().find((c) => c.id === id)!.file}.sandbar-backup-20250301-142233` }),
    'endpoint.info': () => data.FAKE_ENDPOINT,
    'endpoint.token': () => ({ token }),
    'endpoint.rotateToken': () => {
      token = `sbr_${Math.random().toString(16).slice(2).padEnd(32, '0')}`;
      return { token };
    },
    'approvals.list': () => [],
    'approvals.decide': () => ({ decided: false }),
    'sessions.list': () => sessions,
    'sessions.close': ({ id }) => {
      const was = sessions.some((x) => x.id === id);
      sessions = sessions.filter((x) => x.id !== id);
      if (was) emit('sessions.changed', { sessions });
      return { closed: was };
    },
  };

  return {
    async call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
      await wait(60);
      return (handlers[method] as (a: MethodArgs<M>) => MethodResult<M>)(args);
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as (d: unknown) => void;
      set.add(entry);
      return () => set.delete(entry);
    },
  };
}
