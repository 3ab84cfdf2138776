// Entry: the api client (it takes a `#token=…` fragment first), the bridge into the stores, then React.
// Styles first, in cascade order: palette and base, shared pieces, the shell; each view brings its own after.
import './app/theme.css';
import './components/surfaces.css';
import './components/controls.css';
import './components/status.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { adoptTokenFromFragment, api, connection } from './api/index.js';
import { App } from './app/app.js';
import { installBridge } from './stores/bridge.js';

// A new link opened in this tab changes only the fragment: adopt its token before the router reads it.
window.addEventListener('hashchange', () => {
  adoptTokenFromFragment();
});

installBridge(api, { connection });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
