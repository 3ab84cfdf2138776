// The panel's Content-Security-Policy and response headers, defined once for both places it is served:
// the desktop window (app:// scheme, shell/) and browsers under `sandbar serve` (panel-files.ts).

/**
 * Everything from the app origin only. `style-src 'unsafe-inline'` is for React's `style={...}` attributes
 * (layout widths, bars); scripts stay strictly 'self' (no inline, no eval). `img-src blob:` is for run
 * figures, fetched as bytes and shown through object URLs (PNG and JPEG only; SVG is never rendered).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Headers on every panel response served over HTTP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
