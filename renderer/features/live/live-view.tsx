// Live: what runs now, what waits, what just finished; pause new runs; how to connect when idle.
import { useShallow } from 'zustand/react/shallow';
import { historyDetailHref, routeHref } from '../../app/routes.js';
import { Badge, type Tone } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { Switch } from '../../components/switch.js';
import { useNow } from '../../lib/use-now.js';
import { useEndpointStore } from '../../stores/endpoint-store.js';
import { useLiveStore } from '../../stores/live-store.js';
import type { PoolState } from '../../../shared/execution.js';
import { setPaused } from './live-actions.js';
import { ArtifactGallery } from '../artifacts/artifact-gallery.js';
import { EgressList, egressSummary } from '../egress/egress-list.js';
import { ApprovalsCard } from './approvals-card.js';
import { QueuedList } from './queued-list.js';
import { RecentStrip } from './recent-strip.js';
import { RunningCard } from './running-card.js';
import { SessionsCard } from './sessions-card.js';
import './live.css';

export function poolSummary(pool: PoolState): { text: string; tone: Tone } {
  if (pool.size === 0 && !pool.max) return { text: 'Pool off', tone: 'muted' };
  if (pool.size === 0) return { text: `Pool idle · grows to ${pool.max}`, tone: 'muted' };
  if (pool.lastError) return { text: `Pool ${pool.ready}/${pool.size} · failing`, tone: 'fail' };
  if (pool.starting > 0 || pool.ready < pool.size) return { text: `Pool ${pool.ready}/${pool.size} · warming`, tone: 'warn' };
  return { text: `Pool ${pool.ready}/${pool.size} ready`, tone: 'ok' };
}

function ConnectHelp() {
  const info = useEndpointStore((s) => s.info);
  return (
    <EmptyState
      title="Nothing running"
      actions={
        <a className="btn btn-primary" href={routeHref({ view: 'clients' })}>
          Set up a client
        </a>
      }
    >
      <p>Runs appear here the moment an agent calls <code>run_python</code>. Point an MCP client at:</p>
      {info?.url ? (
        <p className="endpoint-line">
          <code className="endpoint-url">{info.url}</code> <CopyButton text={info.url} what="endpoint URL" />
        </p>
      ) : (
        <p className="muted">{info?.error ? `The endpoint is down: ${info.error}` : 'The endpoint is not listening yet.'}</p>
      )}
      <p className="muted">Or let Sandbar add itself to Claude, Cursor, VS Code or Windsurf in the Clients view.</p>
    </EmptyState>
  );
}

export function LiveView() {
  const { loaded, running, queued, recent, pool, paused, memoryLimitBytes, toolCalls } = useLiveStore(
    useShallow((s) => ({
      loaded: s.loaded,
      running: s.running,
      queued: s.queued,
      recent: s.recent,
      pool: s.pool,
      paused: s.paused,
      memoryLimitBytes: s.memoryLimitBytes,
      toolCalls: s.toolCalls,
    })),
  );
  const now = useNow(250, running.length + queued.length > 0);
  const poolState = poolSummary(pool);
  const idle = running.length === 0 && queued.length === 0;
  // The newest finished run that made figures or files: its thumbnails stay until a newer one makes some.
  const latestWithArtifacts = recent.find((r) => (r.artifacts?.length ?? 0) > 0 || (r.refusedArtifacts?.length ?? 0) > 0);
  // Likewise the newest finished run that went through the egress proxy: its connections, from its result.
  const latestWithEgress = recent.find((r) => (r.egress?.length ?? 0) + (r.egressDropped ?? 0) > 0);

  return (
    <section className="view" aria-labelledby="live-title">
      <header className="view-head">
        <div>
          <h1 id="live-title" tabIndex={-1}>
            Live
          </h1>
          <p className="view-sub num">
            {running.length} running · {queued.length} queued
          </p>
        </div>
        <div className="view-actions">
          <span className="pool-badge">
            <Badge tone={poolState.tone} title={pool.lastError ?? undefined}>
              {poolState.text}
            </Badge>
          </span>
          <Switch checked={paused} onChange={(p) => void setPaused(p)} label="Pause new runs" />
        </div>
      </header>

      {paused && (
        <div className="banner banner-warn" role="status">
          <span>New runs are paused: clients are refused until you resume. Runs already going carry on.</span>
          <Button size="sm" onClick={() => void setPaused(false)}>
            Resume
          </Button>
        </div>
      )}

      <ApprovalsCard />

      <SessionsCard />

      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : idle ? (
        <ConnectHelp />
      ) : (
        <>
          <div className="run-list">
            {running.map((run) => (
              <RunningCard key={run.id} run={run} now={now} memoryLimitBytes={memoryLimitBytes} toolCalls={toolCalls[run.id] ?? 0} />
            ))}
          </div>
          {queued.length > 0 && (
            <section className="section" aria-labelledby="queued-title">
              <h2 id="queued-title">Queued</h2>
              <QueuedList queued={queued} now={now} />
            </section>
          )}
        </>
      )}

      {latestWithArtifacts && (
        <section className="section" aria-labelledby="figures-title">
          <h2 id="figures-title">Figures</h2>
          <p className="muted small figures-from">
            From run <a href={historyDetailHref(latestWithArtifacts.id)}>{latestWithArtifacts.id}</a>, the latest that made any
          </p>
          <ArtifactGallery key={latestWithArtifacts.id} runId={latestWithArtifacts.id} artifacts={latestWithArtifacts.artifacts ?? []} refused={latestWithArtifacts.refusedArtifacts ?? []} />
        </section>
      )}

      {latestWithEgress && (
        <section className="section" aria-labelledby="egress-title">
          <h2 id="egress-title">Connections</h2>
          <p className="muted small figures-from">
            From run <a href={historyDetailHref(latestWithEgress.id)}>{latestWithEgress.id}</a>, the latest that used the network:{' '}
            {egressSummary(latestWithEgress.egress ?? [], latestWithEgress.egressDropped)}
          </p>
          <EgressList records={latestWithEgress.egress ?? []} dropped={latestWithEgress.egressDropped} label={`Connections of run ${latestWithEgress.id}`} />
        </section>
      )}

      {recent.length > 0 && (
        <section className="section" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent</h2>
          <RecentStrip recent={recent} />
        </section>
      )}
    </section>
  );
}
