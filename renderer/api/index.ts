/// <reference types="vite/client" />
// The panel's one API client. In Electron it wraps the preload (`window.sandbar`); in a browser it speaks
// HTTP + SSE with the token from the link `sandbar serve` printed. Everything else imports `api` from here.
import type { PreloadApi, SandbarApi } from '../../shared/contract.js';
import { createFakeApi } from '../dev/fake-api.js';
import { alwaysOpen, type ConnectionSource } from './connection.js';
import { HttpApi } from './http-client.js';
import { wrapPreload } from './preload-client.js';
import { sessionTokenStore, takeTokenFromFragment, tokenFromFragment } from './token.js';

export { ApiCallError, describeError, NOT_AUTHORISED_HELP } from './errors.js';
export type { ConnectionSource, ConnectionStatus } from './connection.js';

declare global {
  interface Window {
    sandbar?: PreloadApi;
  }
}

interface Client {
  api: SandbarApi;
  connection: ConnectionSource;
  /** A token that arrived in the fragment after start (HTTP only). */
  adoptToken: (token: string) => void;
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function createClient(): Client {
  if (typeof window !== 'undefined' && window.sandbar) {
    return { api: wrapPreload(window.sandbar), connection: alwaysOpen(), adoptToken: () => {} };
  }
  // The dev-only fake (plausible data for looking at the panel without a server); absent from production builds.
  if ((import.meta.env.DEV || import.meta.env.MODE === 'fake') && new URLSearchParams(window.location.search).has('fake')) {
    return { api: createFakeApi(), connection: alwaysOpen(), adoptToken: () => {} };
  }
  const tokens = sessionTokenStore(sessionStore());
  takeTokenFromFragment(window.location, window.history, tokens);
  const http = new HttpApi({ fetch: (input, init) => window.fetch(input, init), tokens });
  return { api: http, connection: http, adoptToken: (token) => http.setToken(token) };
}

const client = createClient();

export const api: SandbarApi = client.api;
export const connection: ConnectionSource = client.connection;

/**
 * Checks the fragment for a fresh `#token=…` (the user opened a new link in this tab): adopts it and removes
 * it from the address bar. Returns true when it found one. Call before routing on every hash change.
 */
export function adoptTokenFromFragment(): boolean {
  const token = tokenFromFragment(window.location.hash);
  if (!token) return false;
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  client.adoptToken(token);
  return true;
}
