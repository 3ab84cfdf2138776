// Points the panel's api at a FakeHistoryApi and delivers its execution events to the History store the
// way the one bridge does (bridge.test.ts checks the bridge itself routes them).
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { holdApi } from './api-holder.js';
import type { FakeHistoryApi } from './fake-history-api.js';

let offs: (() => void)[] = [];

export function connectFake(fake: FakeHistoryApi): void {
  for (const off of offs) off();
  holdApi(fake.api);
  const store = useHistoryStore.getState;
  offs = [
    fake.api.on('execution.queued', (e) => store().executionQueued(e.execution)),
    fake.api.on('execution.started', (e) => store().executionStarted(e.id, e.at)),
    fake.api.on('execution.toolCall', (e) => store().toolCallRecorded(e.call.executionId)),
    fake.api.on('execution.finished', (e) => store().executionFinished(e.result)),
  ];
}
