// The proxied tool calls of one run as bars on the run's time axis.
import { useMemo } from 'react';
import { displayLine, DISPLAY_LIMITS } from '../../../shared/display-text.js';
import type { HistoryToolCall } from '../../../shared/history.js';
import { formatBytes, formatDuration } from '../../lib/format.js';
import { type TimelineRun, timelineGeometry } from './timeline-geometry.js';

/** Beyond this many calls the rest are summarised: a run looping over a tool can make thousands. */
export const MAX_TIMELINE_CALLS = 300;

export function ToolTimeline({ run, calls }: { run: TimelineRun; calls: readonly HistoryToolCall[] }) {
  const geo = useMemo(() => timelineGeometry(run, calls.slice(0, MAX_TIMELINE_CALLS)), [run, calls]);
  if (calls.length === 0) return <p className="hist-muted">No tool calls.</p>;
  return (
    <div className="hist-timeline">
      <div className="hist-tl-row hist-tl-axis" aria-hidden="true">
        <span />
        <div className="hist-tl-track">
          {geo.ticks.map((t) => (
            <span key={t.pct} className="hist-tl-tick" style={{ left: `${t.pct}%` }}>
              {formatDuration(t.ms)}
            </span>
          ))}
        </div>
        <span />
      </div>
      <ol className="hist-tl-list">
        {geo.bars.map((b, i) => {
          const failed = b.call.isError || b.call.error !== null;
          const label = displayLine(`${b.call.server}.${b.call.tool}`, 2 * DISPLAY_LIMITS.name + 1);
          return (
            <li key={i} className={failed ? 'hist-tl-row is-error' : 'hist-tl-row'}>
              <code className="hist-tl-label" title={label}>
                {label}
              </code>
              <div className="hist-tl-track">
                <div
                  className="hist-tl-bar"
                  style={{ left: `${b.leftPct}%`, width: `${b.widthPct}%` }}
                  title={`${label}: started +${formatDuration(b.offsetMs)}, took ${formatDuration(b.call.durationMs)}`}
                />
              </div>
              <span className="hist-tl-meta">
                {formatDuration(b.call.durationMs)} · {formatBytes(b.call.bytesIn)} in / {formatBytes(b.call.bytesOut)} out
              </span>
              {failed && <span className="hist-tl-error">{b.call.error ? displayLine(b.call.error, DISPLAY_LIMITS.storedError) : 'the tool answered with an error'}</span>}
            </li>
          );
        })}
      </ol>
      {calls.length > MAX_TIMELINE_CALLS && (
        <p className="hist-muted">
          {(calls.length - MAX_TIMELINE_CALLS).toLocaleString()} more calls not drawn; Export as JSON has them all.
        </p>
      )}
    </div>
  );
}
