// Health's pool and queue card: warm containers ready, runs in flight and waiting, servers at a glance.
import { routeHref } from '../../app/routes.js';
import { Badge } from '../../components/badge.js';
import { useLiveStore } from '../../stores/live-store.js';
import { useServersStore } from '../../stores/servers-store.js';
import { poolSummary } from '../live/live-view.js';

export function PoolCard() {
  const pool = useLiveStore((s) => s.pool);
  const running = useLiveStore((s) => s.running.length);
  const queued = useLiveStore((s) => s.queued.length);
  const paused = useLiveStore((s) => s.paused);
  const servers = useServersStore((s) => s.servers);
  const summary = poolSummary(pool);
  const ready = servers?.filter((s) => s.state === 'ready').length ?? 0;
  const crashed = servers?.filter((s) => s.state === 'crashed').length ?? 0;
  return (
    <section className="card" aria-labelledby="pool-title">
      <div className="card-head">
        <h2 id="pool-title">Pool and queue</h2>
        <Badge tone={summary.tone}>{summary.text}</Badge>
      </div>
      <dl className="facts">
        <dt>Warm pool</dt>
        <dd className="num">
          {pool.ready} ready, {pool.starting} starting, target {pool.size}
          {pool.max !== undefined ? ` (grows ${pool.min ?? 0}–${pool.max} with load)` : ''}
        </dd>
        <dt>Refill</dt>
        <dd className="num">
          {pool.refillsPerMin ?? 0} made ready in the last minute{pool.waiting ? `, ${pool.waiting} runs waiting for one` : ''}
        </dd>
        {pool.lastError && (
          <>
            <dt>Last error</dt>
            <dd className="tone-fail">{pool.lastError}</dd>
          </>
        )}
        <dt>Runs</dt>
        <dd className="num">
          {running} running, {queued} queued{paused ? ' · new runs paused' : ''}
        </dd>
        <dt>MCP servers</dt>
        <dd>
          {servers === null ? (
            '…'
          ) : (
            <a href={routeHref({ view: 'servers' })}>
              {servers.length} discovered, {ready} ready{crashed > 0 ? `, ${crashed} crashed` : ''}
            </a>
          )}
        </dd>
      </dl>
    </section>
  );
}
