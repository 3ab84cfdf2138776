// The test host's page script (bundled for Chromium by ../run-view-host.ts): ext-apps' AppBridge, as a
// client that implements MCP Apps runs it, talking to the View through a sandbox proxy in an iframe of
// another origin. The MCP client itself lives in Node behind the page's `mcp` binding: the bridge hands
// it the View's tools/call and resources/read, and Node forwards them to a real `sandbar serve`.
/* global window, document */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.sizes = [];

/** Mounts the View: the proxy iframe, the bridge, the handshake. Resolves once the View is initialized. */
window.startHost = async ({ html, csp, theme, sandboxUrl, hostCapabilities }) => {
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  iframe.style.cssText = 'width: 720px; height: 900px; border: 1px solid #888';
  const bridge = new AppBridge(null, { name: 'sandbar-test-host', version: '1.0.0' }, hostCapabilities, {
    hostContext: { theme, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web', locale: 'en-GB' },
  });
  bridge.oncalltool = (params) => window.mcp('tools/call', params);
  bridge.onreadresource = (params) => window.mcp('resources/read', params);
  bridge.onsizechange = (size) => window.sizes.push(size);
  bridge.onloggingmessage = (message) => window.viewLogs?.push(message);
  const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
  const proxyReady = new Promise((resolve) => (bridge.onsandboxready = resolve));
  iframe.src = sandboxUrl;
  document.body.append(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  await proxyReady;
  await bridge.sendSandboxResourceReady({ html, csp });
  await initialized;
  window.bridge = bridge;
};
