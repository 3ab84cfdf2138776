// What the Servers view does: list servers and tools, allow or deny, restart; errors become toasts.
import { api, describeError } from '../../api/index.js';
import { useServersStore } from '../../stores/servers-store.js';
import { toast } from '../../stores/ui-store.js';

export async function setPolicy(name: string, policy: 'allow' | 'deny'): Promise<void> {
  try {
    const servers = await api.call(policy === 'allow' ? 'servers.allow' : 'servers.deny', { name });
    useServersStore.getState().serversLoaded(servers);
    toast('ok', policy === 'allow' ? `${name} is visible to the sandbox again.` : `${name} is now hidden from the sandbox.`);
  } catch (err) {
    toast('fail', `Could not change ${name}: ${describeError(err)}`);
  }
}

export async function restartServer(name: string): Promise<void> {
  try {
    useServersStore.getState().serversLoaded(await api.call('servers.restart', { name }));
  } catch (err) {
    toast('fail', `Could not restart ${name}: ${describeError(err)}`);
  }
}

export async function loadTools(name: string): Promise<void> {
  const store = useServersStore.getState();
  store.toolsLoading(name);
  try {
    useServersStore.getState().toolsLoaded(name, await api.call('servers.tools', { name }));
  } catch (err) {
    useServersStore.getState().toolsFailed(name, describeError(err));
  }
}
