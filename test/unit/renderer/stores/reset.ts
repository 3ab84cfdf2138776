// Every store back to its initial state, for tests.
import { useApprovalsStore } from '../../../../renderer/stores/approvals-store.js';
import { useClientsStore } from '../../../../renderer/stores/clients-store.js';
import { useConnectionStore } from '../../../../renderer/stores/connection-store.js';
import { useEndpointStore } from '../../../../renderer/stores/endpoint-store.js';
import { useHealthStore } from '../../../../renderer/stores/health-store.js';
import { useLiveStore } from '../../../../renderer/stores/live-store.js';
import { useOutputStore } from '../../../../renderer/stores/output-store.js';
import { useServersStore } from '../../../../renderer/stores/servers-store.js';
import { useSessionsStore } from '../../../../renderer/stores/sessions-store.js';
import { useSettingsStore } from '../../../../renderer/stores/settings-store.js';
import { useUiStore } from '../../../../renderer/stores/ui-store.js';

export function resetStores(): void {
  for (const store of [useApprovalsStore, useClientsStore, useConnectionStore, useEndpointStore, useHealthStore, useLiveStore, useOutputStore, useServersStore, useSessionsStore, useSettingsStore, useUiStore]) {
    store.getState().reset();
  }
}
