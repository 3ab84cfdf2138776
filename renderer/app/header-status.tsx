// The header: the app's state at a glance (as the tray colours it), counts, and how clients reach it.
import { useShallow } from 'zustand/react/shallow';
import { Badge, StatusDot, type Tone } from '../components/badge.js';
import { useConnectionStore } from '../stores/connection-store.js';
import { useEndpointStore } from '../stores/endpoint-store.js';
import { useHealthStore } from '../stores/health-store.js';
import { useLiveStore } from '../stores/live-store.js';
import { overallStatus, type Overall } from './overall-status.js';
import { routeHref } from './routes.js';

const TONE: Record<Overall['state'], Tone> = { ready: 'ok', busy: 'accent', broken: 'fail', offline: 'warn', unknown: 'muted' };

export function HeaderStatus() {
  const connection = useConnectionStore((s) => s.status);
  const health = useHealthStore((s) => s.report);
  const endpoint = useEndpointStore((s) => s.info);
  const { running, queued, paused } = useLiveStore(useShallow((s) => ({ running: s.running.length, queued: s.queued.length, paused: s.paused })));
  const overall = overallStatus({ connection, health, endpoint, running, queued });
  return (
    <header className="topbar">
      <a className="overall" href={routeHref({ view: overall.state === 'broken' ? 'health' : 'live' })}>
        <StatusDot tone={TONE[overall.state]} label={overall.state} pulse={overall.state === 'busy'} />
        <span className="overall-text" aria-live="polite">
          {overall.text}
        </span>
      </a>
      <span className="topbar-counts num" aria-label={`${running} running, ${queued} queued`}>
        {running} running · {queued} queued
      </span>
      {paused && <Badge tone="warn">new runs paused</Badge>}
      <span className="spacer" />
      {endpoint?.url && (
        <code className="topbar-endpoint" title="MCP endpoint">
          {endpoint.url}
        </code>
      )}
    </header>
  );
}
