// The sandboxed preload: exposes exactly `window.sandbar` (contract methods and event subscribers).
// Never ipcRenderer, never an on(anyChannel). Bundled to one CommonJS file (sandboxed preloads cannot import).
import { contextBridge, ipcRenderer } from 'electron';
import { ipcChannel } from '../shared/contract-names.js';
import { buildPreloadApi } from './shell/preload-api.js';

const api = buildPreloadApi({
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  onEvent: (listener) => {
    ipcRenderer.on(ipcChannel.event, (_event, message: unknown) => listener(message));
  },
});

contextBridge.exposeInMainWorld('sandbar', api);
