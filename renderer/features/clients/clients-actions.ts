// What the Clients view does: detect the clients, preview a change, apply it; errors become toasts.
import { api, describeError } from '../../api/index.js';
import { useClientsStore } from '../../stores/clients-store.js';

export async function detectClients(): Promise<void> {
  const store = useClientsStore.getState();
  if (store.detecting) return;
  store.detectStarted();
  try {
    useClientsStore.getState().clientsDetected(await api.call('clients.detect', {}));
  } catch (err) {
    useClientsStore.getState().detectFailed(describeError(err));
  }
}
