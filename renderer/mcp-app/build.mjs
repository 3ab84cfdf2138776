// Builds the run view (an MCP App) into one self-contained HTML document, dist/mcp-app/run.html: esbuild
// bundles the script and its styles, and both go inline. Nothing else is referenced: no file, font or URL
// beside it, so a host can hand the text to a sandboxed iframe as it is.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
export const RUN_VIEW_OUT = path.resolve(here, '../../dist/mcp-app/run.html');

/** The View's own policy, on top of the host's: inline code only, images from the document itself, no network. */
export const RUN_VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'";

/**
 * Zod (under the MCP SDK the App class uses) re-exports every locale it ships as a namespace, so a bundler
 * keeps all of them, some 260 kB: the View needs only the English messages Zod sets by default.
 */
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: path.dirname(args.path) }));
  },
};

/** Returns the document's text; writes it to `outFile` unless that is null. */
export async function buildRunView({ outFile = RUN_VIEW_OUT, minify = true } = {}) {
  const result = await build({
    entryPoints: [path.join(here, 'main.ts')],
    bundle: true,
    write: false,
    outdir: path.join(here, 'out'),
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16'],
    minify,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    plugins: [englishOnlyZod],
  });
  const text = (ext) => result.outputFiles.filter((f) => f.path.endsWith(ext)).map((f) => f.text).join('\n');
  const js = text('.js');
  const css = text('.css');
  // Inline, a closing tag inside the code would end the element early (esbuild escapes those it writes).
  if (/<\/script/i.test(js) || /<\/style/i.test(css)) throw new Error('the run view bundle contains a closing </script> or </style> tag');
  const html =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${RUN_VIEW_CSP}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">' +
    `<title>Sandbar run</title><style>${css}</style></head>\n<body><main id="run-view"></main><script>${js}</script></body></html>\n`;
  if (outFile) {
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, html);
  }
  return html;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const html = await buildRunView();
  console.log(`  ${path.relative(process.cwd(), RUN_VIEW_OUT)}  ${(Buffer.byteLength(html) / 1024).toFixed(1)} kB`);
}
