// The streaming output of one execution: a fixed-height pane (no layout shift while it grows). While it
// follows the end it shows only the last lines, so a run printing thousands of lines a second costs a
// small layout per frame; scrolling up freezes the full kept tail for reading, and returning to the end
// (or the "jump" button) follows again. stderr is coloured and marked.
import { useLayoutEffect, useRef, useState } from 'react';
import { displayText } from '../../../shared/display-text.js';
import type { OutputSegment } from '../../stores/output-ring.js';
import { readOutput, useOutput } from '../../stores/output-store.js';

/** Lines in the DOM while following: many pane-heights of scrollback, little layout. */
export const FOLLOW_LINES = 300;
const AT_END_PX = 24;

/** The code's output as a person may read it: no escape sequences, bidi or invisible characters. */
const shown = (text: string) => displayText(text, { multiline: true });

function Segments({ segments }: { segments: OutputSegment[] }) {
  return segments.map((s, i) =>
    s.stream === 'stderr' ? (
      <span key={i} className="output-stderr" title="stderr">
        {shown(s.text)}
      </span>
    ) : (
      <span key={i}>{shown(s.text)}</span>
    ),
  );
}

export function OutputView({ id, label }: { id: string; label: string }) {
  const live = useOutput(id, FOLLOW_LINES);
  // The full kept tail, captured when the reader scrolled up; null while following.
  const [frozen, setFrozen] = useState<{ segments: OutputSegment[]; version: number } | null>(null);
  const pane = useRef<HTMLPreElement>(null);
  const heightBeforeFreeze = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = pane.current;
    if (!el) return;
    if (frozen === null) {
      el.scrollTop = el.scrollHeight;
    } else if (heightBeforeFreeze.current !== null) {
      // More lines appeared above what the reader was looking at: keep it in place.
      el.scrollTop += el.scrollHeight - heightBeforeFreeze.current;
      heightBeforeFreeze.current = null;
    }
  }, [live.version, frozen]);

  const onScroll = () => {
    const el = pane.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < AT_END_PX;
    if (!atEnd && frozen === null) {
      heightBeforeFreeze.current = el.scrollHeight;
      setFrozen({ segments: readOutput(id).segments, version: live.version });
    } else if (atEnd && frozen !== null && frozen.version !== live.version) {
      setFrozen(null);
    }
  };

  const segments = frozen?.segments ?? live.segments;
  const newer = frozen !== null && frozen.version !== live.version;
  const empty = segments.length === 0;
  return (
    <div className="output">
      <div className="output-head">
        <span aria-hidden="true">Output</span>
        {newer ? (
          <button type="button" className="link-btn output-jump" onClick={() => setFrozen(null)}>
            New output below — follow
          </button>
        ) : (
          <span className="output-legend" aria-hidden="true">
            stdout · <span className="output-stderr">stderr</span>
          </span>
        )}
      </div>
      <pre ref={pane} className="output-pane" tabIndex={0} aria-label={label} aria-busy={!live.present || undefined} onScroll={onScroll}>
        {(frozen ? live.clipped : live.clipped || live.hiddenAbove) && (
          <span className="output-clipped">
            {frozen || !live.hiddenAbove
              ? '… earlier output dropped (the panel keeps the last part; History has all captured output)'
              : `… showing the last ${FOLLOW_LINES} lines while following; scroll up to read more`}
            {'\n'}
          </span>
        )}
        {empty ? <span className="output-empty">{live.present ? 'No output yet.' : 'Waiting for output…'}</span> : <Segments segments={segments} />}
      </pre>
    </div>
  );
}
