// The navigation: six views, counts where they matter, arrow keys between entries, Alt+1…6 from anywhere.
import { useEffect, type KeyboardEvent } from 'react';
import { StatusDot } from '../components/badge.js';
import { useHealthStore } from '../stores/health-store.js';
import { useLiveStore } from '../stores/live-store.js';
import { useServersStore } from '../stores/servers-store.js';
import { navigate, routeHref, VIEWS, type Route, type View } from './routes.js';

const LABELS: Record<View, string> = {
  live: 'Live',
  limits: 'Limits',
  health: 'Health',
  history: 'History',
  servers: 'Servers',
  clients: 'Clients',
};

function moveFocus(e: KeyboardEvent<HTMLElement>) {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a.nav-link')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? links.length - 1 : (at + (e.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length;
  links[next]?.focus();
  e.preventDefault();
}

/** Alt+1…6 opens a view from anywhere (Alt so typing in a field never triggers it). */
export function useViewShortcuts(): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const n = Number(e.code.replace('Digit', '')) || Number(e.key);
      const view = VIEWS[n - 1];
      if (!view) return;
      e.preventDefault();
      navigate({ view });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function Sidebar({ route }: { route: Route }) {
  const running = useLiveStore((s) => s.running.length);
  const queued = useLiveStore((s) => s.queued.length);
  const healthOk = useHealthStore((s) => s.report?.ok ?? null);
  const crashed = useServersStore((s) => s.servers?.filter((x) => x.state === 'crashed').length ?? 0);

  const extra = (view: View) => {
    if (view === 'live' && running + queued > 0) return <span className="nav-count num">{running + queued}</span>;
    if (view === 'health' && healthOk === false) return <StatusDot tone="fail" label="problems" />;
    if (view === 'servers' && crashed > 0) return <StatusDot tone="fail" label={`${crashed} crashed`} />;
    return null;
  };

  return (
    <nav className="sidebar" aria-label="Views" onKeyDown={moveFocus}>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Sandbar
      </div>
      <ul className="nav">
        {VIEWS.map((view, i) => (
          <li key={view}>
            <a className="nav-link" href={routeHref({ view })} aria-current={route.view === view ? 'page' : undefined} title={`${LABELS[view]} (Alt+${i + 1})`}>
              <span>{LABELS[view]}</span>
              {extra(view)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
