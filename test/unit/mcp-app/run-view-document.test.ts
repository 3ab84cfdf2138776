// The run view as one document: built by the same script `npm run build` runs, it refers to nothing
// outside itself (no src/href/url() but data: and fragments, no network API in its script), declares its
// own no-network policy, and carries the protocol (ext-apps' App) and the highlighter inline.
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { buildRunView, RUN_VIEW_CSP } from '../../../renderer/mcp-app/build.mjs';
import { externalReferences } from '../../fixtures/self-contained-html.js';

const build = () => buildRunView({ outFile: null });

describe('the run view document', () => {
  it('refers to nothing outside itself', async () => {
    const html = await build();
    expect(externalReferences(html)).toEqual([]);
    const { document } = new JSDOM(html).window;
    // Everything inline: one script, one style sheet, the mount point.
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('script')!.hasAttribute('src')).toBe(false);
    expect(document.querySelectorAll('style')).toHaveLength(1);
    expect(document.getElementById('run-view')).not.toBeNull();
    // The App's handshake and the Python grammar are in the script, not fetched.
    expect(document.querySelector('script')!.textContent).toContain('ui/initialize');
    expect(document.querySelector('script')!.textContent).toContain('elif');
  });

  it('declares a policy of its own that allows no network', async () => {
    const html = await build();
    const meta = new JSDOM(html).window.document.querySelector('meta[http-equiv="Content-Security-Policy"]');
    expect(meta?.getAttribute('content')).toBe(RUN_VIEW_CSP);
    expect(RUN_VIEW_CSP).toContain("connect-src 'none'");
    expect(RUN_VIEW_CSP).toContain("default-src 'none'");
  });

  it('the checker finds what a document would fetch', () => {
    expect(
      externalReferences(
        '<link rel="stylesheet" href="x.css"><img src="http://127.0.0.1/a.png"><a href="#top">t</a><img src="data:image/png;base64,AA">' +
          '<style>@font-face{src:url(https://h/f.woff)} .a{background:url("data:image/png;base64,AA")}</style><div style="background:url(/b.png)"></div>' +
          '<script>fetch("/x"); new WebSocket("ws://h")</script>',
      ),
    ).toEqual(['<link href="x.css">', '<img src="http://127.0.0.1/a.png">', 'url(/b.png)', '<link rel="stylesheet">', 'url(https://h/f.woff)', 'script calls fetch(', 'script calls WebSocket(']);
  });
});
