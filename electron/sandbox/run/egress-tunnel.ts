// The host's end of egress over the agent's channel: the sandbox has no network, so each connection code
// makes to the in-container proxy address travels as frames (`egress_open`, `egress_data` with base64,
// `egress_end`, `egress_close`, each with the connection's id) and becomes a stream here, handed to the
// run's egress gateway (egress/egress-proxy.ts, behind this port). Frames, open streams and buffered bytes
// are bounded per run, so a sandbox writing frames by hand ends as protocol abuse, never as host memory.
import { Duplex } from 'node:stream';
import type { EgressRecord } from '../../../shared/egress-audit.js';

/** Where connections go (the run's egress proxy). */
export interface EgressGateway {
  accept(stream: Duplex): void;
  close(): void;
}

/** One run's egress as the engine hands it to the run (made by egress/egress-runs.ts; absent: egress is off). */
export interface RunEgress {
  gateway: EgressGateway;
  limits: TunnelLimits;
  /** For the agent's start frame: the CA certificate the sandbox trusts, and each secret's placeholder (never a value). */
  agent: { caPem: string; placeholders: Record<string, string> };
  /** The run's connections so far (at most MAX_EGRESS_RECORDS) and how many more were not kept. */
  records(): { egress: EgressRecord[]; egressDropped: number };
}

/**
 * Sends one frame to the sandbox. A promise back means the container's input is full: the stream waits for it
 * before taking more, so a fast upstream is slowed to what the sandbox reads (host memory stays bounded).
 */
export type FrameSender = (frame: EgressFrame) => Promise<void> | void;

export type EgressFrame =
  | { type: 'egress_open'; id: number }
  | { type: 'egress_data'; id: number; data: string }
  | { type: 'egress_end'; id: number }
  | { type: 'egress_close'; id: number }
  /** Host to sandbox only: the proxy took `bytes` more of this connection's data (the agent's send window). */
  | { type: 'egress_ack'; id: number; bytes: number };

export const EGRESS_FRAME_TYPES: ReadonlySet<string> = new Set(['egress_open', 'egress_data', 'egress_end', 'egress_close']);

/** Bytes of one data frame's payload, before base64 (both directions). */
export const EGRESS_CHUNK_BYTES = 48 * 1024;
/** What the agent sends of one connection before the host acknowledges it (egress.py WINDOW); below MAX_BUFFERED_BYTES. */
export const EGRESS_WINDOW_BYTES = 1024 * 1024;
/** The host acknowledges at least this much at a time (or all once its buffer is empty). */
const ACK_STEP_BYTES = 64 * 1024;
/** Streams open at once (the proxy's budget allows fewer connections; this bounds streams not yet parsed). */
export const MAX_OPEN_STREAMS = 64;
/** Bytes from the sandbox waiting for a slow upstream before the connection is cut (an agent keeping to its window never gets near). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface TunnelLimits {
  /** Frames the sandbox may send in the run (past it: protocol abuse). */
  maxFrames: number;
}

/**
 * Small frames a run may send besides full chunks: a kept-alive connection sends one frame per small request,
 * so a run of many small API calls needs far more frames than its bytes suggest. Each costs the host one
 * JSON parse (microseconds), so this bounds host time, not memory.
 */
export const SMALL_FRAME_ALLOWANCE = 100_000;

/** Frames for a run that may move `maxBytes` through at most `maxConnections` connections: twice what a well-behaved agent sends, plus small requests. */
export function tunnelLimits(maxBytes: number, maxConnections: number): TunnelLimits {
  return { maxFrames: 2 * (Math.ceil(maxBytes / EGRESS_CHUNK_BYTES) + 4 * maxConnections) + SMALL_FRAME_ALLOWANCE };
}

class TunnelStream extends Duplex {
  peerClosed = false;
  inputEnded = false;

  constructor(
    readonly id: number,
    private readonly send: FrameSender,
  ) {
    super({ allowHalfOpen: true });
  }

  /** Bytes from the sandbox pushed into this stream, and how many of them were acknowledged as taken. */
  pushed = 0;
  #acked = 0;

  override _read(): void {
    // Push-based: data arrives as frames (acknowledged as it is taken, in read() below).
  }

  /**
   * Every consumer (pipe, flowing or paused) takes data through read(): tell the agent what was taken, so it
   * may send that much again. It holds EGRESS_WINDOW_BYTES unacknowledged at most; MAX_BUFFERED_BYTES cuts
   * one that does not keep to it.
   */
  override read(size?: number): unknown {
    const chunk: unknown = super.read(size);
    const taken = this.pushed - this.readableLength;
    if (!this.destroyed && (taken - this.#acked >= ACK_STEP_BYTES || (this.readableLength === 0 && taken > this.#acked))) {
      this.send({ type: 'egress_ack', id: this.id, bytes: taken - this.#acked });
      this.#acked = taken;
    }
    return chunk;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    let full: Promise<void> | void = undefined;
    for (let at = 0; at < chunk.length; at += EGRESS_CHUNK_BYTES) {
      full = this.send({ type: 'egress_data', id: this.id, data: chunk.subarray(at, at + EGRESS_CHUNK_BYTES).toString('base64') }) ?? full;
    }
    if (full) void full.then(() => done(), () => done());
    else done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.send({ type: 'egress_end', id: this.id });
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.peerClosed) this.send({ type: 'egress_close', id: this.id });
    done(error);
  }
}

export class EgressTunnel {
  readonly #streams = new Map<number, TunnelStream>();
  #frames = 0;
  #closed = false;

  constructor(
    private readonly gateway: EgressGateway,
    private readonly send: FrameSender,
    private readonly limits: TunnelLimits,
  ) {}

  /** One frame from the sandbox. Null while within bounds; else why the run must end (protocol abuse). */
  receive(frame: Record<string, unknown>): string | null {
    if (this.#closed) return null;
    this.#frames += 1;
    if (this.#frames > this.limits.maxFrames) return `the sandbox sent more egress frames than a run may (at most ${this.limits.maxFrames})`;
    const id = frame.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return 'an egress frame without a valid connection id';
    const stream = this.#streams.get(id);
    switch (frame.type) {
      case 'egress_open': {
        if (stream) return `egress connection ${id} was opened twice`;
        if (this.#streams.size >= MAX_OPEN_STREAMS) {
          // Not abuse (a burst of connections): this one is refused, the run goes on.
          this.send({ type: 'egress_close', id });
          return null;
        }
        const created = new TunnelStream(id, this.send);
        created.on('error', () => {}); // the proxy handles a cut connection; an unheard error must not end the app
        created.once('close', () => this.#streams.delete(id));
        this.#streams.set(id, created);
        this.gateway.accept(created);
        return null;
      }
      case 'egress_data': {
        if (typeof frame.data !== 'string' || frame.data.length > Math.ceil(EGRESS_CHUNK_BYTES / 3) * 4) return 'an egress data frame that is not base64 of at most one chunk';
        if (!stream || stream.destroyed || stream.inputEnded) return null; // closed in the meantime: dropped
        const bytes = Buffer.from(frame.data, 'base64');
        if (stream.readableLength + bytes.length > MAX_BUFFERED_BYTES) {
          stream.destroy();
          return null;
        }
        stream.pushed += bytes.length;
        stream.push(bytes);
        return null;
      }
      case 'egress_end':
        if (stream && !stream.inputEnded) {
          stream.inputEnded = true;
          stream.push(null);
        }
        return null;
      case 'egress_close':
        if (stream) {
          stream.peerClosed = true;
          stream.destroy();
        }
        return null;
      default:
        return `an unknown egress frame type`;
    }
  }

  get open(): number {
    return this.#streams.size;
  }

  /** The run ended: every stream and the gateway go. */
  close(): void {
    this.#closed = true;
    for (const stream of this.#streams.values()) {
      stream.peerClosed = true;
      stream.destroy();
    }
    this.#streams.clear();
    this.gateway.close();
  }
}
