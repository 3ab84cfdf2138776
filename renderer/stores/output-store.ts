// Streaming output per execution. Chunks go into bounded rings outside React; the store only holds a
// version per execution, bumped at most once per animation frame, so a chatty run re-renders ≤ 60×/s.
import { useMemo } from 'react';
import { create } from 'zustand';
import type { Events, OutputBuffer } from '../../shared/contract.js';
import { OutputRing, type OutputSegment } from './output-ring.js';

/** Rings kept for finished runs too (the recent strip shows their tail), oldest dropped past this. */
const MAX_RINGS = 40;

const rings = new Map<string, OutputRing>();
/** Chunks that arrived while `output.subscribe` was on its way; applied after its buffer. */
const pending = new Map<string, { stdout: string; stderr: string }[]>();
let dirty = new Set<string>();
let flushScheduled = false;

type FrameScheduler = (flush: () => void) => void;
const animationFrame: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
};
let schedule: FrameScheduler = animationFrame;

interface OutputState {
  /** Bumped when an execution's ring changed; components select their id's version. */
  versions: Record<string, number>;
  outputChunk(event: Events['output.chunk']): void;
  /** `output.subscribe` was sent: hold chunks until its buffer arrives. */
  outputLoading(id: string): void;
  /** The buffer of `output.subscribe` (null: the run is unknown or over; keep what we have). */
  outputLoaded(id: string, buffer: OutputBuffer | null): void;
  reset(): void;
}

function ringFor(id: string): OutputRing {
  let ring = rings.get(id);
  if (!ring) {
    ring = new OutputRing();
    rings.set(id, ring);
    if (rings.size > MAX_RINGS) {
      const oldest = rings.keys().next().value;
      if (oldest !== undefined && oldest !== id) rings.delete(oldest);
    }
  }
  return ring;
}

function markDirty(id: string): void {
  dirty.add(id);
  if (flushScheduled) return;
  flushScheduled = true;
  schedule(flushOutput);
}

/** Publishes the changed rings to React (called by the frame scheduler; exported for tests). */
export function flushOutput(): void {
  flushScheduled = false;
  if (dirty.size === 0) return;
  const ids = dirty;
  dirty = new Set();
  useOutputStore.setState((state) => {
    const versions = { ...state.versions };
    for (const id of ids) versions[id] = (versions[id] ?? 0) + 1;
    return { versions };
  });
}

/** Replace the frame scheduler (tests run without animation frames); returns the previous one. */
export function setFrameScheduler(next: FrameScheduler | null): FrameScheduler {
  const previous = schedule;
  schedule = next ?? animationFrame;
  return previous;
}

export const useOutputStore = create<OutputState>()(() => ({
  versions: {},
  outputChunk({ id, stdout, stderr }) {
    const waiting = pending.get(id);
    if (waiting) {
      waiting.push({ stdout, stderr });
      return;
    }
    const ring = ringFor(id);
    ring.push('stdout', stdout);
    ring.push('stderr', stderr);
    markDirty(id);
  },
  outputLoading(id) {
    if (!pending.has(id)) pending.set(id, []);
  },
  outputLoaded(id, buffer) {
    const waiting = pending.get(id) ?? [];
    pending.delete(id);
    const ring = ringFor(id);
    if (buffer) ring.reset(buffer);
    for (const chunk of waiting) {
      ring.push('stdout', chunk.stdout);
      ring.push('stderr', chunk.stderr);
    }
    markDirty(id);
  },
  reset() {
    rings.clear();
    pending.clear();
    dirty = new Set();
    flushScheduled = false;
    useOutputStore.setState({ versions: {} });
  },
}));

export interface OutputView {
  segments: OutputSegment[];
  clipped: boolean;
  /** False until anything arrived for this execution. */
  present: boolean;
}

/**
 * What the panel shows for one execution right now (read after selecting its version). `maxLines` keeps
 * only the end: a pane that follows a chatty run lays out a few hundred lines per frame, not thousands.
 */
export function readOutput(id: string, maxLines?: number): OutputView & { hiddenAbove: boolean } {
  const ring = rings.get(id);
  if (!ring) return { segments: [], clipped: false, present: false, hiddenAbove: false };
  return { segments: ring.segments(maxLines), clipped: ring.clipped, present: true, hiddenAbove: maxLines !== undefined && ring.size.lines > maxLines };
}

/** The current output of an execution, re-rendered at most once per frame. */
export function useOutput(id: string, maxLines?: number): OutputView & { version: number; hiddenAbove: boolean } {
  const version = useOutputStore((s) => s.versions[id] ?? 0);
  return useMemo(() => ({ ...readOutput(id, maxLines), version }), [id, version, maxLines]);
}
