// Hash routes (`#/live`, `#/history/<id>`, …): they work from file:// in Electron and under `sandbar serve`
// alike. The token fragment (`#token=…`) is taken by the api client before any route is read.
import { useSyncExternalStore } from 'react';

export const VIEWS = ['live', 'limits', 'health', 'history', 'servers', 'clients'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  /** The execution whose history detail is open (`#/history/<id>`). */
  id?: string;
}

export const DEFAULT_ROUTE: Route = { view: 'live' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '').split(/[?&]/)[0] ?? '';
  const [head, ...rest] = path.split('/');
  const view = VIEWS.find((v) => v === head);
  if (!view) return DEFAULT_ROUTE;
  if (view === 'history' && rest.length > 0 && rest[0]) {
    try {
      return { view, id: decodeURIComponent(rest.join('/')) };
    } catch {
      return { view };
    }
  }
  return { view };
}

export function routeHref(route: Route): string {
  return route.id ? `#/${route.view}/${encodeURIComponent(route.id)}` : `#/${route.view}`;
}

/** The link to one execution's detail in History. */
export function historyDetailHref(id: string): string {
  return routeHref({ view: 'history', id });
}

export function navigate(route: Route): void {
  const href = routeHref(route);
  if (window.location.hash !== href) window.location.hash = href;
}

export function openHistoryDetail(id: string): void {
  navigate({ view: 'history', id });
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const currentHash = () => window.location.hash;

/** The current route; re-renders on hash changes. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, currentHash, () => '');
  return parseRoute(hash);
}
