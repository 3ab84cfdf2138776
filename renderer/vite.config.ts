// Builds the panel into dist/renderer: relative asset paths (file:// in Electron, / under `sandbar serve`)
// and no inline scripts, so the CSP `script-src 'self'` holds.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The dev server injects an inline React Refresh preamble, which the CSP meta would block: drop it there only. */
function devWithoutCsp(): Plugin {
  return {
    name: 'sandbar-dev-without-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/, ''),
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), devWithoutCsp()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // Chromium (Electron and browsers) supports modulepreload natively; no polyfill code is needed.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
  },
});
