// Looks at the panel in real Chromium: serves a build made with the dev fake API and screenshots every
// view, light and dark. Usage:
//   npx vite build -c renderer/vite.config.ts --mode fake --outDir /tmp/panel-fake
//   node renderer/dev/screenshots.mjs /tmp/panel-fake /tmp/panel-shots [fake-variant]
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const [root = '/tmp/panel-fake', out = '/tmp/panel-shots', variant = ''] = process.argv.slice(2);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    const body = await readFile(join(root, path === '/' ? 'index.html' : path));
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/?fake${variant ? `=${variant}` : ''}`;

await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const errors = [];
try {
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('console', (m) => m.type() === 'error' && errors.push(`${scheme}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${scheme}: ${e.message}`));
    await page.emulateMedia({ colorScheme: scheme });
    for (const view of ['live', 'limits', 'health', 'history', 'servers', 'clients']) {
      await page.goto(`${base}#/${view}`);
      await page.waitForTimeout(view === 'live' ? 1800 : 900);
      await page.screenshot({ path: join(out, `${view}-${scheme}${variant ? `-${variant}` : ''}.png`) });
    }
    // Interactions: a validation error, a client's diff, a server's tools, the token revealed.
    await page.goto(`${base}#/limits`);
    await page.waitForTimeout(600);
    await page.fill('#limit-memory', '12x');
    await page.fill('#limit-timeoutSec', '500');
    await page.fill('#limit-pids', '256');
    await page.waitForTimeout(700);
    await page.screenshot({ path: join(out, `limits-invalid-${scheme}.png`) });
    await page.fill('#limit-memory', '1g');
    await page.fill('#limit-timeoutSec', '60');
    await page.waitForTimeout(700);
    await page.screenshot({ path: join(out, `limits-changed-${scheme}.png`) });
    await page.click('button:has-text("Apply")');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(out, `limits-applied-${scheme}.png`) });
    await page.goto(`${base}#/clients`);
    await page.waitForTimeout(500);
    await page.click('button:has-text("Add") >> nth=0');
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, `clients-diff-${scheme}.png`) });
    await page.click('text=Write the change');
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, `clients-done-${scheme}.png`) });
    await page.goto(`${base}#/servers`);
    await page.waitForTimeout(500);
    await page.click('button[aria-label="Show the tools of github"]');
    await page.waitForTimeout(900);
    await page.click('summary >> nth=0');
    await page.screenshot({ path: join(out, `servers-tools-${scheme}.png`) });
    await page.goto(`${base}#/health`);
    await page.waitForTimeout(500);
    await page.click('.pull button');
    await page.click('text=Reveal');
    await page.waitForTimeout(1600);
    await page.screenshot({ path: join(out, `health-pull-${scheme}.png`), fullPage: true });
    await page.click('text=Run probe again');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `health-probing-${scheme}.png`) });
    await page.goto(`${base}#/live`);
    await page.waitForTimeout(11_000);
    await page.screenshot({ path: join(out, `live-later-${scheme}.png`), fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
if (errors.length) console.error(errors.join('\n'));
console.log(`screenshots in ${out}`);
