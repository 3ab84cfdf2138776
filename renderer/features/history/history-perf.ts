// Timing marks for the panel benchmark: when History opened, when its first rows were committed and when
// they were painted (the frame after). Read by test/bench/panel-history through window.__sandbarPerf.
export interface HistoryPerf {
  /** performance.now() when the view mounted. */
  openedAt: number | null;
  /** When the first page's rows were committed to the DOM. */
  firstRowsAt: number | null;
  /** Just after the next frame (rAF, then a posted message): the rows are on screen. */
  firstPaintAt: number | null;
  /** How many rows were in the DOM at that moment. */
  firstRowElements: number | null;
}

declare global {
  interface Window {
    __sandbarPerf?: { history?: HistoryPerf };
  }
}

function record(): HistoryPerf {
  const perf = (window.__sandbarPerf ??= {});
  return (perf.history ??= { openedAt: null, firstRowsAt: null, firstPaintAt: null, firstRowElements: null });
}

export function markHistoryOpened(): void {
  const r = record();
  r.openedAt = performance.now();
  r.firstRowsAt = r.firstPaintAt = r.firstRowElements = null;
  performance.mark('sandbar:history:open');
}

/** Called from a layout effect once the first rows are in the DOM; the frame after is the paint. */
export function markHistoryFirstRows(rowElements: number): void {
  const r = record();
  if (r.firstRowsAt !== null) return;
  r.firstRowsAt = performance.now();
  r.firstRowElements = rowElements;
  performance.mark('sandbar:history:first-rows');
  // rAF runs just before the frame is painted; a message posted from it is handled just after.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      r.firstPaintAt = performance.now();
      performance.mark('sandbar:history:first-paint');
      channel.port1.close();
    };
    channel.port2.postMessage(null);
  });
}
