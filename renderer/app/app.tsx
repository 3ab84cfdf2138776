// The shell: sidebar, status header, the current view, toasts; or the not-authorised screen.
import { useEffect, useRef, type RefObject } from 'react';
import { Toasts } from '../components/toasts.js';
import { ClientsView } from '../features/clients/clients-view.js';
import { HealthView } from '../features/health/health-view.js';
import { HistoryView } from '../features/history/history-view.js';
import { LimitsView } from '../features/limits/limits-view.js';
import { LiveView } from '../features/live/live-view.js';
import { ServersView } from '../features/servers/servers-view.js';
import { useConnectionStore } from '../stores/connection-store.js';
import { HeaderStatus } from './header-status.js';
import { useRoute, type Route } from './routes.js';
import { Sidebar, useViewShortcuts } from './sidebar.js';
import { Unauthorized } from './unauthorized.js';

function ViewFor({ route }: { route: Route }) {
  switch (route.view) {
    case 'live':
      return <LiveView />;
    case 'limits':
      return <LimitsView />;
    case 'health':
      return <HealthView />;
    case 'history':
      return <HistoryView />;
    case 'servers':
      return <ServersView />;
    case 'clients':
      return <ClientsView />;
  }
}

/** After a view change, focus moves to its heading so screen readers announce it (not on first load). */
function useFocusOnViewChange(view: Route['view'], main: RefObject<HTMLElement | null>) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const el = main.current;
    if (!el) return;
    const heading = el.querySelector<HTMLElement>('h1');
    if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    (heading ?? el).focus({ preventScroll: true });
    el.scrollTop = 0;
  }, [view, main]);
}

export function App() {
  const route = useRoute();
  const status = useConnectionStore((s) => s.status);
  const main = useRef<HTMLElement>(null);
  useViewShortcuts();
  useFocusOnViewChange(route.view, main);
  if (status === 'unauthorized') return <Unauthorized />;
  return (
    <div className="shell">
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <Sidebar route={route} />
      <div className="shell-main">
        <HeaderStatus />
        {status === 'reconnecting' && (
          <div className="conn-banner" role="status">
            Lost the connection to Sandbar. Reconnecting…
          </div>
        )}
        <main ref={main} className="main" tabIndex={-1} aria-label={route.view}>
          <ViewFor route={route} />
        </main>
      </div>
      <Toasts />
    </div>
  );
}
