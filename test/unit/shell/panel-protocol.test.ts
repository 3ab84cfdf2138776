// The app:// handler: files under the panel directory only, CSP and MIME type on every response.
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, createPanelHandler, panelFileFor } from '../../../electron/shell/panel-protocol.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/shell/window-options.js';

let root: string;
let panelDir: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sandbar-panel-'));
  panelDir = path.join(root, 'renderer');
  mkdirSync(path.join(panelDir, 'assets'), { recursive: true });
  writeFileSync(path.join(panelDir, 'index.html'), '<!doctype html><title>Sandbar</title>');
  writeFileSync(path.join(panelDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(panelDir, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(path.join(panelDir, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(path.join(root, 'secret.txt'), 'do not serve');
  symlinkSync(path.join(root, 'secret.txt'), path.join(panelDir, 'assets', 'link.txt'));
  mkdirSync(path.join(root, 'renderer-evil'));
  writeFileSync(path.join(root, 'renderer-evil', 'x.js'), 'evil');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => createPanelHandler({ panelDir })({ url, method });

describe('panelFileFor', () => {
  it('maps app URLs into the directory, / to index.html', () => {
    expect(panelFileFor('app://sandbar/', '/p')).toBe(path.resolve('/p/index.html'));
    expect(panelFileFor('app://sandbar/assets/a.js?v=2#x', '/p')).toBe(path.resolve('/p/assets/a.js'));
    expect(panelFileFor('app://sandbar/a%20b.png', '/p')).toBe(path.resolve('/p/a b.png'));
  });

  it('keeps dot segments the URL parser resolves inside the directory', () => {
    expect(panelFileFor('app://sandbar/%2e%2e/secret.txt', '/p')).toBe(path.resolve('/p/secret.txt'));
    expect(panelFileFor('app://sandbar/../../secret.txt', '/p')).toBe(path.resolve('/p/secret.txt'));
  });

  it.each([
    'app://sandbar/..%2f..%2fetc%2fpasswd',
    'app://sandbar/assets/..%2F..%2Fsecret.txt',
    'app://sandbar/..%5csecret.txt',
    'app://sandbar/%00index.html',
    'app://sandbar/%E0%A4%A',
    'app://other/index.html',
    'https://sandbar/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(panelFileFor(url, '/p')).toBeNull();
  });
});

describe('createPanelHandler', () => {
  it('serves index.html with the CSP, nosniff and the HTML type', async () => {
    const res = await get('app://sandbar/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Sandbar</title>');
  });

  it('serves scripts, styles and images with their MIME types', async () => {
    expect((await get('app://sandbar/assets/index-abc.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://sandbar/assets/index-abc.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('app://sandbar/assets/logo.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('refuses traversal, symlinks out of the directory, sibling folders and other hosts, with the CSP still set', async () => {
    for (const url of [
      'app://sandbar/..%2fsecret.txt',
      'app://sandbar/assets/link.txt',
      'app://sandbar/..%2frenderer-evil/x.js',
      'app://other/index.html',
      'app://sandbar/assets/missing.js',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await res.text()).not.toContain('do not serve');
    }
  });

  it('falls back to index.html for client-side routes, not for missing files', async () => {
    expect((await get('app://sandbar/history')).status).toBe(200);
    expect((await get('app://sandbar/missing.png')).status).toBe(404);
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://sandbar/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('app://sandbar/index.html', 'POST')).status).toBe(405);
  });

  it('says the panel is not built when index.html is missing', async () => {
    const res = await createPanelHandler({ panelDir: path.join(root, 'nope') })({ url: 'app://sandbar/', method: 'GET' });
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/not built/);
  });
});

describe('contentTypeOf', () => {
  it('knows the panel\'s file types and falls back to octet-stream', () => {
    expect(contentTypeOf('a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('a.PNG')).toBe('image/png');
    expect(contentTypeOf('a.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('a.bin')).toBe('application/octet-stream');
  });
});
