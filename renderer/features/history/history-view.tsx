// The History view as the app shell mounts it: connects the store to the API once, then the panel.
import { useState } from 'react';
import { api } from '../../api/index.js';
import { connectHistory } from '../../stores/history-store.js';
import { HistoryPanel } from './history-panel.js';

export function HistoryView() {
  // Before the panel's first effects run (children's effects run first); idempotent if the shell connected already.
  useState(() => connectHistory(api));
  return <HistoryPanel />;
}
