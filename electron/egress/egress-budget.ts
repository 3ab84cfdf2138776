// One run's egress budget, so hostile code cannot exhaust the host through the proxy: connections in all
// and at once, bytes both ways together, and the audit records kept. Each connection takes a lease; the
// proxy reports its bytes to it and ends the connection the moment the run's bytes are spent.
import { MAX_EGRESS_RECORDS, type EgressRecord } from '../../shared/egress-audit.js';

/** Connections one run may hold open at once (each holds two sockets and buffers on the host). */
export const MAX_CONCURRENT_CONNECTIONS = 32;
/** A connection with no byte either way for this long is closed. */
export const EGRESS_IDLE_MS = 60_000;

export interface BudgetLimits {
  maxConnections: number;
  maxBytes: number;
  maxConcurrent?: number;
}

export interface Lease {
  /** Counts bytes; false once the run's bytes are spent (the caller ends the connection). */
  add(direction: 'out' | 'in', bytes: number): boolean;
  /** Bytes of this connection so far. */
  readonly bytesOut: number;
  readonly bytesIn: number;
  /** Frees the slot; the second call does nothing. */
  release(): void;
}

export class EgressBudget {
  readonly #limits: Required<BudgetLimits>;
  #opened = 0;
  #open = 0;
  #bytes = 0;
  #records: EgressRecord[] = [];
  #dropped = 0;

  /** `onRecord`: each kept record as it is made (the run's `execution.egress` events). */
  constructor(
    limits: BudgetLimits,
    private readonly onRecord?: (entry: EgressRecord) => void,
  ) {
    this.#limits = { maxConcurrent: MAX_CONCURRENT_CONNECTIONS, ...limits };
  }

  /** A lease for one more connection, or the reason there is none. */
  open(): Lease | { refused: string } {
    if (this.#bytes >= this.#limits.maxBytes) return { refused: `the run's egress bytes are spent (${this.#limits.maxBytes} bytes)` };
    if (this.#opened >= this.#limits.maxConnections) return { refused: `the run opened its ${this.#limits.maxConnections} connections` };
    if (this.#open >= this.#limits.maxConcurrent) return { refused: `the run has ${this.#limits.maxConcurrent} connections open at once` };
    this.#opened += 1;
    this.#open += 1;
    let released = false;
    let bytesOut = 0;
    let bytesIn = 0;
    return {
      add: (direction, bytes) => {
        if (direction === 'out') bytesOut += bytes;
        else bytesIn += bytes;
        this.#bytes += bytes;
        return this.#bytes <= this.#limits.maxBytes;
      },
      get bytesOut() {
        return bytesOut;
      },
      get bytesIn() {
        return bytesIn;
      },
      release: () => {
        if (released) return;
        released = true;
        this.#open -= 1;
      },
    };
  }

  /** Keeps a record while there is room; after that only counts it. */
  record(entry: EgressRecord): void {
    if (this.#records.length < MAX_EGRESS_RECORDS) {
      this.#records.push(entry);
      this.onRecord?.(entry);
    } else this.#dropped += 1;
  }

  get records(): readonly EgressRecord[] {
    return this.#records;
  }

  get dropped(): number {
    return this.#dropped;
  }

  get usage(): { connections: number; open: number; bytes: number } {
    return { connections: this.#opened, open: this.#open, bytes: this.#bytes };
  }
}
