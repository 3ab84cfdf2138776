// The History view as the app shell mounts it.
import { HistoryPanel } from './history-panel.js';

export function HistoryView() {
  return <HistoryPanel />;
}
