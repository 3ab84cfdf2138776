// One running execution: who asked, what code, time and memory against their limits, output, Kill.
import { useEffect, useState } from 'react';
import type { RunningExecution } from '../../../shared/contract.js';
import { displayText } from '../../../shared/display-text.js';
import { Badge, StatusDot } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { ProgressBar, usageTone } from '../../components/progress-bar.js';
import { clientLabel, formatBytes, formatSeconds } from '../../lib/format.js';
import { watchOutput } from '../../stores/bridge.js';
import { useLiveStore } from '../../stores/live-store.js';
import { EgressList, egressSummary } from '../egress/egress-list.js';
import { cancelExecution } from './live-actions.js';
import { OutputView } from './output-view.js';

const PREVIEW_LINES = 6;

export function CodePreview({ code }: { code: string }) {
  const [all, setAll] = useState(false);
  const lines = displayText(code, { multiline: true }).replace(/\n+$/, '').split('\n');
  const shown = all ? lines : lines.slice(0, PREVIEW_LINES);
  return (
    <div className="code-preview">
      <pre className="code">{shown.join('\n')}</pre>
      {lines.length > PREVIEW_LINES && (
        <button type="button" className="link-btn" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}

/** The connections this run made through the egress proxy so far (none: nothing shown). */
function RunConnections({ id }: { id: string }) {
  const egress = useLiveStore((s) => s.egress[id]);
  if (!egress || egress.records.length + egress.dropped === 0) return null;
  return (
    <section className="run-egress" aria-label={`Connections of run ${id.slice(0, 8)}`}>
      <h3 className="run-egress-title">Connections · {egressSummary(egress.records, egress.dropped)}</h3>
      <EgressList records={egress.records} dropped={egress.dropped} label={`Connections of run ${id.slice(0, 8)} so far`} />
    </section>
  );
}

export function RunningCard({ run, now, memoryLimitBytes, toolCalls }: { run: RunningExecution; now: number; memoryLimitBytes: number | null; toolCalls: number }) {
  const [stopping, setStopping] = useState(false);
  useEffect(() => watchOutput(run.id), [run.id]);

  const elapsed = run.startedAt === null ? null : Math.max(0, now - run.startedAt);
  const timeoutMs = run.timeoutSec * 1000;
  const timeFraction = elapsed === null ? null : elapsed / timeoutMs;
  const memFraction = run.memoryBytes !== null && memoryLimitBytes ? run.memoryBytes / memoryLimitBytes : null;
  const who = clientLabel(run.client);

  return (
    <article className="card run-card" aria-label={`Run ${run.id} from ${who}`}>
      <header className="run-head">
        <StatusDot tone="accent" label="running" pulse />
        <span className="run-client">{who}</span>
        {run.servers.map((s) => (
          <Badge key={s}>{s}</Badge>
        ))}
        <span className="run-id mono" title={run.containerName ?? run.id}>
          {run.id.slice(0, 8)}
        </span>
        <span className="spacer" />
        {toolCalls > 0 && <span className="muted small">{toolCalls === 1 ? '1 tool call' : `${toolCalls} tool calls`}</span>}
        <Button
          variant="danger"
          size="sm"
          busy={stopping}
          aria-label={`Kill run ${run.id.slice(0, 8)}`}
          onClick={() => {
            setStopping(true);
            void cancelExecution(run.id).finally(() => setStopping(false));
          }}
        >
          Kill
        </Button>
      </header>
      <CodePreview code={run.code} />
      <div className="meters">
        <div className="meter">
          <div className="meter-head">
            <span>Time</span>
            <span className="num">{elapsed === null ? 'starting…' : `${formatSeconds(elapsed)} / ${run.timeoutSec} s`}</span>
          </div>
          <ProgressBar
            value={timeFraction}
            tone={timeFraction === null ? 'accent' : usageTone(timeFraction)}
            label="Elapsed time against the timeout"
            valueText={elapsed === null ? 'starting' : `${Math.floor(elapsed / 1000)} of ${run.timeoutSec} seconds`}
          />
        </div>
        <div className="meter">
          <div className="meter-head">
            <span>Memory</span>
            <span className="num">
              {run.memoryBytes === null ? '—' : formatBytes(run.memoryBytes)}
              {memoryLimitBytes ? ` / ${formatBytes(memoryLimitBytes)}` : ''}
            </span>
          </div>
          <ProgressBar
            value={memFraction ?? 0}
            tone={memFraction === null ? 'muted' : usageTone(memFraction)}
            label="Memory in use against the limit"
            valueText={run.memoryBytes === null ? 'not sampled yet' : `${formatBytes(run.memoryBytes)} of ${memoryLimitBytes ? formatBytes(memoryLimitBytes) : 'no limit'}`}
          />
        </div>
      </div>
      <OutputView id={run.id} label={`Output of run ${run.id.slice(0, 8)}`} />
      <RunConnections id={run.id} />
    </article>
  );
}
