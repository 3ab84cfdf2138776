// "Export as JSON": the run's whole record as a file download, with nothing but the browser's own API.
import type { HistoryDetail } from '../../../shared/history.js';

export function exportFileName(id: string): string {
  return `sandbar-run-${id.replace(/[^\w.-]+/g, '_')}.json`;
}

export function exportRunJson(detail: HistoryDetail, doc: Document = document): void {
  const blob = new Blob([`${JSON.stringify(detail, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = exportFileName(detail.id);
  a.rel = 'noopener';
  doc.body.append(a);
  a.click();
  a.remove();
  // The click starts the download synchronously; the URL can go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
