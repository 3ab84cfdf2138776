// The shell's security decisions as pure functions: which URLs the panel may navigate to, what a
// window.open gets, which links may open in the user's browser, which permissions a page gets.
import { APP_ORIGIN } from './window-options.js';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Same scheme, host and port as the app origin. Compared by parts: WHATWG URL reports the origin of a
 * non-special scheme such as `app:` as the opaque "null", so `url.origin` cannot be compared.
 */
export function isAppUrl(url: string, origin: string = APP_ORIGIN): boolean {
  const target = parse(url);
  const app = parse(origin);
  if (!target || !app) return false;
  return target.protocol === app.protocol && target.host === app.host && target.username === '' && target.password === '';
}

/**
 * Sites a user-clicked link may open in the default browser (fix hints and documentation). Everything
 * else is refused: openExternal hands the URL to the OS, which would also run file:, smb: or custom
 * protocol handlers.
 */
export const EXTERNAL_LINK_HOSTS: readonly string[] = [
  'podman.io',
  'docs.podman.io',
  'docs.docker.com',
  'modelcontextprotocol.io',
  'github.com',
];

/** An https link to an allowed documentation host on the default port, without credentials. */
export function isAllowedExternalLink(url: string, hosts: readonly string[] = EXTERNAL_LINK_HOSTS): boolean {
  const target = parse(url);
  if (!target || target.protocol !== 'https:' || target.port !== '' || target.username !== '' || target.password !== '') return false;
  return hosts.includes(target.hostname);
}

export type NavigationDecision = { action: 'allow' } | { action: 'deny'; openExternal?: string };

/** For will-navigate / will-redirect: stay on the app origin; an allowed docs link goes to the browser. */
export function navigationDecision(url: string): NavigationDecision {
  if (isAppUrl(url)) return { action: 'allow' };
  return isAllowedExternalLink(url) ? { action: 'deny', openExternal: url } : { action: 'deny' };
}

/** For setWindowOpenHandler: the app never opens a second window; an allowed docs link goes to the browser. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternal?: string } {
  return isAllowedExternalLink(url) ? { action: 'deny', openExternal: url } : { action: 'deny' };
}

/**
 * Every permission is refused (camera, notifications, geolocation, ...) except writing plain text to the
 * clipboard from the app origin, which the panel's "Copy" buttons need (`navigator.clipboard.writeText`).
 */
export function permissionAllowed(permission: string, requestingUrl: string): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(requestingUrl);
}

/** Responses that get the CSP header from the session (the app scheme sets it itself; DevTools keeps its own). */
export function cspApplies(url: string): boolean {
  const target = parse(url);
  return target !== null && ['app:', 'http:', 'https:', 'file:'].includes(target.protocol);
}
