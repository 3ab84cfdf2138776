// A run's connections through the host's egress proxy, as History's detail and Live show them: host:port,
// allowed or denied (and why), bytes each way, the name of the secret the host added (never its value) and
// the request the host saw. Host, path, method and reason come from the sandbox, so each is shown through
// the one sanitiser (shared/display-text.ts) and bounded.
import { MAX_EGRESS_RECORDS, type EgressRecord } from '../../../shared/egress-audit.js';
import { displayLine } from '../../../shared/display-text.js';
import { Badge } from '../../components/badge.js';
import { formatBytes } from '../../lib/format.js';
import './egress.css';

/** `host:port`, an IPv6 literal in brackets, as a person may read it. */
export function egressPlace(record: Pick<EgressRecord, 'host' | 'port'>): string {
  const host = displayLine(record.host, 260);
  return `${host.includes(':') ? `[${host}]` : host}:${record.port}`;
}

/** "3 connections · 1 denied" (and how many went unrecorded). */
export function egressSummary(records: readonly EgressRecord[], dropped = 0): string {
  const total = records.length + dropped;
  const denied = records.filter((r) => r.decision === 'denied').length;
  return `${total} connection${total === 1 ? '' : 's'}${denied > 0 ? ` · ${denied} denied` : ''}`;
}

function Request({ record }: { record: EgressRecord }) {
  if (record.method === undefined && record.path === undefined && record.status === undefined) return null;
  return (
    <span className="egress-request">
      <code>
        {record.method !== undefined && displayLine(record.method, 16)}
        {record.path !== undefined && ` ${displayLine(record.path, 200)}`}
      </code>
      {record.status !== undefined && <span className="egress-status"> → {record.status}</span>}
    </span>
  );
}

export function EgressList({ records, dropped = 0, label }: { records: readonly EgressRecord[]; dropped?: number; label: string }) {
  return (
    <div className="egress">
      <ul className="egress-list" aria-label={label}>
        {records.map((r, i) => (
          <li key={i} className={`egress-row is-${r.decision}`}>
            <code className="egress-place">{egressPlace(r)}</code>
            <Badge tone={r.decision === 'allowed' ? 'ok' : 'fail'}>{r.decision}</Badge>
            {r.reason !== undefined && <span className="egress-reason">{displayLine(r.reason, 300)}</span>}
            <Request record={r} />
            {r.secret !== undefined && (
              <span className="egress-secret" title="The host added this secret to the request; its value never reaches the sandbox or the panel">
                secret <code>{displayLine(r.secret, 64)}</code>
              </span>
            )}
            <span className="egress-bytes num">
              {formatBytes(r.bytesOut)} out · {formatBytes(r.bytesIn)} in
            </span>
          </li>
        ))}
      </ul>
      {dropped > 0 && (
        <p className="egress-dropped">
          {dropped} more connection{dropped === 1 ? '' : 's'} not recorded: a run keeps its first {MAX_EGRESS_RECORDS}.
        </p>
      )}
    </div>
  );
}
