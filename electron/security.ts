// Applies the shell's guards to the session and to every webContents: CSP, no permissions, no navigation
// off the app origin, no new windows, no <webview>. The decisions live in shell/navigation-policy.ts.
import { shell, type App, type Session, type WebContents } from 'electron';
import { cspApplies, navigationDecision, permissionAllowed, windowOpenDecision } from './shell/navigation-policy.js';
import { CONTENT_SECURITY_POLICY } from './shell/window-options.js';

type Warn = (message: string) => void;

/** Permissions and the CSP header for every response of the session (the app scheme also sets it itself). */
export function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionAllowed(permission, details.requestingUrl));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => permissionAllowed(permission, requestingOrigin));
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (!cspApplies(details.url)) return callback({});
    const responseHeaders: Record<string, string[] | string> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = value;
    }
    responseHeaders['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders });
  });
}

function openExternally(url: string, warn: Warn): void {
  shell.openExternal(url).catch((err: unknown) => warn(`could not open ${url}: ${err instanceof Error ? err.message : String(err)}`));
}

/** Navigation, new windows and <webview> for one webContents. */
export function hardenContents(contents: WebContents, warn: Warn): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternal) openExternally(decision.openExternal, warn);
    else warn(`blocked a new window for ${url}`);
    return { action: 'deny' };
  });
  const guard = (event: { url: string; preventDefault(): void }) => {
    const decision = navigationDecision(event.url);
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.openExternal) openExternally(decision.openExternal, warn);
    else warn(`blocked navigation to ${event.url}`);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  // Subframes too (will-navigate covers the main frame only); a frame never opens links externally.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || navigationDecision(event.url).action === 'allow') return;
    event.preventDefault();
    warn(`blocked a frame navigating to ${event.url}`);
  });
}

/** Hardens the session now, and every webContents created from here on (register before the first window). */
export function applySecurityGuards(app: App, ses: Session, warn: Warn): void {
  hardenSession(ses);
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, warn));
}
