// The panel window's options, its Content-Security-Policy and the app origin, as plain data: the security
// settings are pinned by a test, so weakening one is a visible, reviewed change.
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';

/** The panel is served from this privileged custom scheme, never from file:// or a dev server. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'sandbar';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const PANEL_URL = `${APP_ORIGIN}/index.html`;

/**
 * `standard` gives the scheme real origins and relative URL resolution, `secure` makes it a secure context,
 * `supportFetchAPI` + `corsEnabled` let Vite's module scripts (fetched in CORS mode) load. No
 * `bypassCSP`, no `allowServiceWorkers`.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
  stream: true,
  codeCache: true,
} as const;

export { CONTENT_SECURITY_POLICY };

/** Headers on every response of the app scheme. */
export const PANEL_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  // The panel is rebuilt in place; a stale cached bundle after an update would mismatch the preload.
  'Cache-Control': 'no-cache',
};

/** The subset of BrowserWindowConstructorOptions Sandbar sets; the literal `true`/`false` types pin them. */
export interface PanelWindowOptions {
  title: string;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: false;
  backgroundColor: string;
  autoHideMenuBar: boolean;
  icon?: string;
  webPreferences: {
    preload: string;
    sandbox: true;
    contextIsolation: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    experimentalFeatures: false;
    webviewTag: false;
    navigateOnDragDrop: false;
    spellcheck: false;
  };
}

export const PANEL_BACKGROUND = '#16181d';

export function panelWindowOptions(options: { preload: string; icon?: string }): PanelWindowOptions {
  return {
    title: 'Sandbar',
    width: 1180,
    height: 780,
    minWidth: 760,
    minHeight: 520,
    // Shown on 'ready-to-show' so the window never flashes blank.
    show: false,
    backgroundColor: PANEL_BACKGROUND,
    autoHideMenuBar: true,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}
