// A running run's connections as `execution.egress` events report them. The proxy sends one record per
// connection as it ends; should it also send one as a connection is decided (allowed, nothing moved yet, no
// answer), a later record for the same request (host, port, method, path, secret) with bytes or an answer
// updates that row instead of adding one, so either way a connection is one row. The cost: a connection
// that ends having moved no byte, followed by the same request again, shows as one row here until the run's
// result replaces the list. Bounded like the run's own audit (MAX_EGRESS_RECORDS), so a flood of
// connections cannot grow the panel's memory; past the bound only the count grows.
import { MAX_EGRESS_RECORDS, type EgressRecord } from '../../shared/egress-audit.js';

export interface LiveEgress {
  records: EgressRecord[];
  /** Indexes of connections seen as decided but not yet as ended. */
  open: number[];
  /** Connections past the bound: counted, not kept. */
  dropped: number;
}

export const EMPTY_EGRESS: LiveEgress = { records: [], open: [], dropped: 0 };

/** Allowed, with nothing sent or received and no answer yet: how a connection looks when it is decided. */
const looksDecided = (r: EgressRecord) => r.decision === 'allowed' && r.bytesOut === 0 && r.bytesIn === 0 && r.status === undefined;

const sameRequest = (a: EgressRecord, b: EgressRecord) => a.host === b.host && a.port === b.port && a.method === b.method && a.path === b.path && a.secret === b.secret;

/** The run's connections with one more report: an update of the oldest open connection to the same place, or a new row. */
export function mergeEgress(state: LiveEgress, record: EgressRecord): LiveEgress {
  if (record.decision === 'allowed' && !looksDecided(record)) {
    const at = state.open.findIndex((i) => sameRequest(state.records[i]!, record));
    if (at !== -1) {
      const index = state.open[at]!;
      return { ...state, records: state.records.map((r, i) => (i === index ? record : r)), open: state.open.filter((_, j) => j !== at) };
    }
  }
  if (state.records.length >= MAX_EGRESS_RECORDS) return { ...state, dropped: state.dropped + 1 };
  const index = state.records.length;
  return { records: [...state.records, record], open: looksDecided(record) ? [...state.open, index] : state.open, dropped: state.dropped };
}
