// Pins the panel window's security settings and the CSP: weakening either fails here, on purpose.
import { describe, expect, it } from 'vitest';
import { PANEL_CSP } from '../../../electron/http/panel-files.js';
import {
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  PANEL_RESPONSE_HEADERS,
  PANEL_URL,
  panelWindowOptions,
} from '../../../electron/shell/window-options.js';

describe('panel window options', () => {
  const options = panelWindowOptions({ preload: '/app/dist/electron/preload.cjs' });

  it('keeps every web preference locked down', () => {
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/electron/preload.cjs',
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
    });
  });

  it('starts hidden (shown on ready-to-show) with a background colour and sane sizes', () => {
    expect(options.show).toBe(false);
    expect(options.backgroundColor).toMatch(/^#[0-9a-f]{6}$/i);
    expect(options.width).toBeGreaterThanOrEqual(options.minWidth);
    expect(options.height).toBeGreaterThanOrEqual(options.minHeight);
    expect(options).not.toHaveProperty('icon');
    expect(panelWindowOptions({ preload: 'p', icon: '/i.png' }).icon).toBe('/i.png');
  });
});

describe('Content-Security-Policy', () => {
  it('is exactly the reviewed policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('never allows eval, inline scripts or remote hosts', () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|wasm-unsafe-eval|unsafe-hashes|strict-dynamic|\*|https?:/);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });

  it('is the same policy `sandbar serve` sends with the web panel', () => {
    expect(PANEL_CSP).toBe(CONTENT_SECURITY_POLICY);
  });

  it('goes on every app-scheme response with nosniff', () => {
    expect(PANEL_RESPONSE_HEADERS['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(PANEL_RESPONSE_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('app origin and scheme', () => {
  it('is app://sandbar, loaded at /index.html', () => {
    expect(APP_ORIGIN).toBe('app://sandbar');
    expect(APP_SCHEME).toBe('app');
    expect(PANEL_URL).toBe('app://sandbar/index.html');
  });

  it('is a standard, secure scheme that does not bypass the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true, supportFetchAPI: true, corsEnabled: true });
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP');
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('allowServiceWorkers');
  });
});
