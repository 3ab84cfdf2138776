// One run in full (`#/history/<id>`): how it ended, its code, output, figures and files, tool calls and
// limits; re-run, export and copy.
import { type ReactNode, useEffect, useRef } from 'react';
import type { HistoryDetail } from '../../../shared/history.js';
import { historyDetailHref, routeHref } from '../../app/routes.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { displayText } from '../../../shared/display-text.js';
import { clientLabel, formatBytes, formatDateTime } from '../../lib/format.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { ArtifactGallery } from '../artifacts/artifact-gallery.js';
import { ApprovalsSection } from './approvals-section.js';
import { EgressList, egressSummary } from '../egress/egress-list.js';
import { FoldersSection } from './folders-section.js';
import { PackagesSection } from './packages-section.js';
import { SessionCallFact } from './session-call-fact.js';
import { CodeBlock } from './code-block.js';
import { describeExit, statusTone } from './describe-exit.js';
import { exportRunJson } from './export-json.js';
import { formatMaybeDuration } from './format.js';
import { ToolTimeline } from './tool-timeline.js';
import './history-detail.css';

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="hist-facts">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Stream({ name, text, truncated }: { name: 'stdout' | 'stderr'; text: string; truncated: boolean }) {
  return (
    <section className={`hist-stream is-${name}${text ? '' : ' is-empty'}`} aria-label={name}>
      <div className="hist-stream-head">
        <span className="hist-stream-name">{name}</span>
        {truncated && (
          <span className="hist-flag" title="The engine cut this stream at the output cap, or history kept only its beginning">
            truncated
          </span>
        )}
      </div>
      {/* The code's output as a person may read it: no escape sequences, bidi or invisible characters. */}
      {text ? <pre className="hist-stream-text">{displayText(text, { multiline: true })}</pre> : <p className="hist-muted hist-stream-empty">(empty)</p>}
    </section>
  );
}

function limitFacts(d: HistoryDetail): [string, ReactNode][] {
  const timeout = d.timeoutSec !== null ? `${d.timeoutSec} s` : '—';
  if (!d.limits) return [['Timeout', timeout], ['Limits', <span className="hist-muted">not recorded</span>]];
  const l = d.limits;
  return [
    ['Timeout', `${timeout} (max ${l.maxTimeoutSec} s)`],
    ['Memory', l.memory],
    ['Processes', String(l.pids)],
    ['CPUs', l.cpus === null ? 'host default' : String(l.cpus)],
    ['Output cap', `${formatBytes(l.outputCapBytes)} per stream`],
    ['/tmp', l.tmpSize],
    ['Workspace', l.workspaceSize],
    ['User', l.user],
  ];
}

function RunActions({ detail }: { detail: HistoryDetail }) {
  const rerun = useHistoryStore((s) => (s.rerun?.fromId === detail.id ? s.rerun : null));
  return (
    <>
      <div className="hist-actions">
        <Button variant="primary" size="sm" busy={rerun?.phase === 'starting'} onClick={() => void useHistoryStore.getState().rerunRequested(detail.id)}>
          Re-run
        </Button>
        <Button size="sm" onClick={() => exportRunJson(detail)}>
          Export as JSON
        </Button>
        <CopyButton text={detail.code} label="Copy code" what="code" />
      </div>
      {rerun?.phase === 'started' && rerun.newId && (
        <p role="status" className="hist-note">
          Started as <a href={historyDetailHref(rerun.newId)}>{rerun.newId}</a> · <a href={routeHref({ view: 'live' })}>watch it in Live</a>
        </p>
      )}
      {rerun?.phase === 'error' && (
        <p role="alert" className="hist-error-text">
          Could not re-run: {rerun.error}
        </p>
      )}
    </>
  );
}

function RunDetail({ d }: { d: HistoryDetail }) {
  const client = clientLabel(d.client) + (d.transport ? ` (${d.transport})` : '');
  const exit = describeExit(d);
  // The engine's sentence ("Execution timed out after 5s") only when it says more than the headline.
  const message = d.error && d.status !== 'runtime_error' && d.error !== exit ? d.error : null;
  return (
    <div className="hist-detail-body">
      <p className="hist-exit">
        <Badge tone={statusTone(d.status)}>{exit}</Badge>
        {message && <span className="hist-muted">{message}</span>}
      </p>
      <RunActions detail={d} />
      <Facts
        items={[
          ['Queued', formatDateTime(d.queuedAt)],
          ['Started', d.startedAt !== null ? formatDateTime(d.startedAt) : '—'],
          ['Duration', formatMaybeDuration(d.durationMs)],
          ['Client', client],
          ['Servers', d.servers.length ? displayText(d.servers.join(', ')) : '—'],
          ['Exit code', d.exitCode !== null ? String(d.exitCode) : '—'],
          ['Container', d.containerName ?? '—'],
          ...(d.session ? [['Session', <SessionCallFact runId={d.id} session={d.session} />] as [string, ReactNode]] : []),
        ]}
      />
      <h3>Code</h3>
      <CodeBlock code={d.code} />
      <h3>Output</h3>
      <Stream name="stdout" text={d.stdout} truncated={d.stdoutTruncated} />
      <Stream name="stderr" text={d.stderr} truncated={d.stderrTruncated} />
      {(d.artifacts.length > 0 || d.refusedArtifacts.length > 0) && (
        <>
          <h3>Figures and files ({d.artifacts.length})</h3>
          <ArtifactGallery runId={d.id} artifacts={d.artifacts} refused={d.refusedArtifacts} />
        </>
      )}
      {d.packages && <PackagesSection packages={d.packages} />}
      {d.folders?.length > 0 && <FoldersSection folders={d.folders} />}
      {d.approvals.length > 0 && <ApprovalsSection approvals={d.approvals} />}
      {(d.egress?.length ?? 0) + (d.egressDropped ?? 0) > 0 && (
        <>
          <h3>Connections ({egressSummary(d.egress ?? [], d.egressDropped ?? 0)})</h3>
          <EgressList records={d.egress ?? []} dropped={d.egressDropped ?? 0} label="Connections the run made" />
        </>
      )}
      <h3>Tool calls{d.toolCalls.length ? ` (${d.toolCalls.length})` : ''}</h3>
      {d.toolCallsDropped ? (
        <p className="hist-note">
          {d.toolCallsDropped} more tool call{d.toolCallsDropped === 1 ? '' : 's'} not recorded: history keeps the first {d.toolCalls.length} of a run.
        </p>
      ) : null}
      <ToolTimeline run={d} calls={d.toolCalls} />
      <h3>Limits in force</h3>
      <Facts items={limitFacts(d)} />
    </div>
  );
}

export function HistoryDetailPane({ onClose }: { onClose(): void }) {
  const detail = useHistoryStore((s) => s.detail);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on the new detail.
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, [detail?.id]);
  if (!detail) return null;
  return (
    <aside className="hist-detail" aria-labelledby="hist-detail-title">
      <header className="hist-detail-head">
        <h2 id="hist-detail-title" ref={headingRef} tabIndex={-1}>
          Run <code>{detail.id}</code>
        </h2>
        <Button variant="ghost" size="sm" aria-label="Close details" title="Close (Esc)" onClick={onClose}>
          ✕
        </Button>
      </header>
      {detail.phase === 'loading' && (
        <p role="status" className="hist-muted hist-detail-msg">
          Loading run…
        </p>
      )}
      {detail.phase === 'missing' && <p className="hist-detail-msg">This run is not in the history any more: retention removed it, or the history was cleared.</p>}
      {detail.phase === 'error' && (
        <p role="alert" className="hist-detail-msg hist-error-text">
          Could not load this run: {detail.error}
        </p>
      )}
      {detail.phase === 'ready' && <RunDetail d={detail.data} />}
    </aside>
  );
}
