// Health rows about the running service rather than the sandbox (SPEC 5: endpoint and port, pool,
// running/queued counts, proxied servers). They inform; only the sandbox checks decide `ok`. Each is a pure
// function of live state, recomputed whenever that state changes (health-monitor.ts).
import type { EndpointInfo, ServerView } from '../../shared/contract.js';
import type { PoolState } from '../../shared/execution.js';
import type { HealthCheck } from '../../shared/health.js';

export function endpointCheck(info: EndpointInfo): HealthCheck {
  const base = { id: 'endpoint', label: 'MCP endpoint' };
  if (!info.listening) {
    return { ...base, status: 'fail', detail: info.error ?? `Not listening on port ${info.port}`, hint: 'Pick a free port in the settings (0 picks one for you), or stop whatever uses it.' };
  }
  // Only what changes with an event (listening, moved, failed): the row is recomputed on those.
  if (info.error) return { ...base, status: 'warn', detail: `${info.url}. ${info.error}`, hint: 'Pick a free port in the settings.' };
  return { ...base, status: 'ok', detail: `Listening at ${info.url}` };
}

/** "target 5 (grows 2–8 with load), 2 waiting, 14 made ready in the last minute", or '' for a fixed pool at rest. */
export function poolLoad(pool: PoolState): string {
  const parts = [
    ...(pool.max !== undefined ? [`target ${pool.size} (grows ${pool.min ?? 0}–${pool.max} with load)`] : []),
    ...(pool.waiting ? [`${pool.waiting} waiting for one`] : []),
    ...(pool.refillsPerMin ? [`${pool.refillsPerMin} made ready in the last minute`] : []),
  ];
  return parts.join(', ');
}

export function poolCheck(pool: PoolState, counts: { running: number; queued: number; paused: boolean }): HealthCheck {
  const base = { id: 'pool', label: 'Warm pool and queue' };
  const load = `${counts.running} running, ${counts.queued} queued${counts.paused ? ', new runs paused' : ''}`;
  if (pool.lastError) {
    return { ...base, status: 'warn', detail: `${pool.ready} of ${pool.size} containers ready; the last start failed: ${pool.lastError}. ${load}`, hint: 'Runs still start cold; check the runtime and image rows above.' };
  }
  const off = pool.size === 0 && !pool.max;
  const growth = poolLoad(pool);
  const state = off ? 'off (every run starts a fresh container)' : `${pool.ready} of ${pool.size} containers ready${pool.starting ? `, ${pool.starting} starting` : ''}${growth ? `; ${growth}` : ''}`;
  return { ...base, status: counts.paused ? 'warn' : 'ok', detail: `Pool ${state}. ${load}`, ...(counts.paused ? { hint: 'Resume new runs from the tray or the Live view.' } : {}) };
}

export function serversCheck(servers: readonly ServerView[]): HealthCheck {
  const base = { id: 'servers', label: 'Proxied MCP servers' };
  if (servers.length === 0) return { ...base, status: 'ok', detail: 'No MCP servers discovered; code can still run without them.' };
  const crashed = servers.filter((s) => s.state === 'crashed');
  const by = (state: string) => servers.filter((s) => s.state === state).length;
  const detail = `${servers.length} discovered: ${by('ready')} ready, ${by('starting')} starting, ${by('stopped')} not started yet, ${crashed.length} crashed; ${servers.filter((s) => s.policy === 'deny').length} denied.`;
  if (crashed.length === 0) return { ...base, status: 'ok', detail };
  const which = crashed.map((s) => `${s.name}${s.lastError ? ` (${s.lastError})` : ''}`).join('; ');
  return { ...base, status: 'warn', detail: `${detail} Crashed: ${which}`, hint: 'Open the Servers view to see the error and restart the server.' };
}

/** `unavailableOn`: the backend's name when it cannot mount package layers. */
export function packagesCheck(state: { index: string; usage: { layers: number; bytes: number; capBytes: number } | null; lastProblem: string | null; unavailableOn?: string }): HealthCheck {
  const base = { id: 'packages', label: 'Packages' };
  if (state.unavailableOn) return { ...base, status: 'ok', detail: `Not available with the ${state.unavailableOn} runtime: bake packages into the image.` };
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  const cache = state.usage ? `${state.usage.layers} layer${state.usage.layers === 1 ? '' : 's'}, ${mb(state.usage.bytes)} of ${mb(state.usage.capBytes)}` : 'empty';
  const detail = `Index ${state.index}; cache ${cache}.`;
  if (state.lastProblem) return { ...base, status: 'warn', detail: `${detail} Last fetch problem: ${state.lastProblem}`, hint: 'Check packageIndex in the settings and that this machine can reach it.' };
  return { ...base, status: 'ok', detail };
}
