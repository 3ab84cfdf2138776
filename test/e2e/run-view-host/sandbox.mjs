// The sandbox proxy a host serves from an origin of its own (here: another port): it puts the View's
// HTML into an inner iframe (srcdoc, scripts only, no same-origin) under a CSP built from the resource's
// metadata, and relays messages between the View and the host page. Hosts write this part themselves
// (ext-apps ships the bridge and the App, not the proxy page).
/* global window, document */
const host = new URL(document.referrer).origin;
let inner;

/** The policy for the View, from `_meta.ui.csp`: each missing list means none of that kind. */
function policy(csp = {}) {
  const list = (domains) => (domains && domains.length ? domains.join(' ') : '');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: ${resources}`.trim(),
    `connect-src ${list(csp.connectDomains) || "'none'"}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    `base-uri ${list(csp.baseUriDomains) || "'none'"}`,
  ].join('; ');
}

function withPolicy(html, csp) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + meta) : meta + html;
}

window.addEventListener('message', (event) => {
  if (event.source === window.parent && event.origin === host) {
    const message = event.data;
    if (message && message.method === 'ui/notifications/sandbox-resource-ready') {
      inner = document.createElement('iframe');
      inner.setAttribute('sandbox', message.params.sandbox || 'allow-scripts');
      inner.style.cssText = 'width: 100%; height: 100%; border: 0';
      inner.srcdoc = withPolicy(message.params.html, message.params.csp);
      document.body.append(inner);
    } else if (inner) {
      inner.contentWindow.postMessage(message, '*');
    }
  } else if (inner && event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, host);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
