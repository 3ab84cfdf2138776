// What the panel may navigate to, open, or be granted: the app origin only; a few docs sites go to the browser.
import { describe, expect, it } from 'vitest';
import {
  cspApplies,
  isAllowedExternalLink,
  isAppUrl,
  navigationDecision,
  permissionAllowed,
  windowOpenDecision,
} from '../../../electron/shell/navigation-policy.js';

describe('isAppUrl', () => {
  it.each(['app://sandbar/', 'app://sandbar/index.html', 'app://sandbar/assets/x.js?v=1#top', 'app://sandbar'])('same origin: %s', (url) => {
    expect(isAppUrl(url)).toBe(true);
  });

  it.each([
    'app://other/index.html',
    'app://sandbar.evil/index.html',
    'app://sandbar:1/index.html',
    'app://u:p@sandbar/index.html',
    'apps://sandbar/',
    'https://sandbar/',
    'http://127.0.0.1:7337/',
    'file:///index.html',
    'about:blank',
    'javascript:alert(1)',
    'data:text/html,x',
    'not a url',
    '',
  ])('other origin: %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });
});

describe('navigationDecision', () => {
  it('allows same-origin navigation', () => {
    expect(navigationDecision('app://sandbar/index.html#/history')).toEqual({ action: 'allow' });
  });

  it.each(['https://evil.example/', 'http://podman.io/', 'file:///etc/passwd', 'app://other/', 'javascript:void 0', 'smb://host/share'])('denies %s', (url) => {
    expect(navigationDecision(url)).toEqual({ action: 'deny' });
  });

  it('denies an allowed docs link but sends it to the browser', () => {
    expect(navigationDecision('https://podman.io/docs/installation')).toEqual({ action: 'deny', openExternal: 'https://podman.io/docs/installation' });
  });
});

describe('windowOpenDecision', () => {
  it.each(['app://sandbar/index.html', 'https://evil.example/', 'about:blank', ''])('denies a new window for %s', (url) => {
    expect(windowOpenDecision(url)).toEqual({ action: 'deny' });
  });

  it('denies the window but opens an allowed https docs link externally', () => {
    expect(windowOpenDecision('https://docs.docker.com/engine/security/rootless/')).toEqual({
      action: 'deny',
      openExternal: 'https://docs.docker.com/engine/security/rootless/',
    });
  });
});

describe('isAllowedExternalLink', () => {
  it.each([
    'http://podman.io/',
    'https://podman.io:8443/',
    'https://user@podman.io/',
    'https://podman.io.evil.example/',
    'https://evil.example/?podman.io',
    'file://podman.io/x',
    'https://example.com/',
  ])('refuses %s', (url) => {
    expect(isAllowedExternalLink(url)).toBe(false);
  });
});

describe('permissionAllowed', () => {
  it('refuses everything except clipboard writes from the app origin', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown']) {
      expect(permissionAllowed(permission, 'app://sandbar/')).toBe(false);
    }
    expect(permissionAllowed('clipboard-sanitized-write', 'app://sandbar')).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example')).toBe(false);
  });
});

describe('cspApplies', () => {
  it('covers pages, not DevTools', () => {
    expect(cspApplies('app://sandbar/index.html')).toBe(true);
    expect(cspApplies('https://example.com/')).toBe(true);
    expect(cspApplies('devtools://devtools/bundled/inspector.html')).toBe(false);
    expect(cspApplies('garbage')).toBe(false);
  });
});
