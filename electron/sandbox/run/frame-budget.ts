// Per-run budgets, in frames and bytes, for every frame kind the sandbox sends that is not output (output
// has its own cap; host calls have the RPC gate). The agent keeps well within each one (artifacts.py and
// out_files.py send at most so many images, chunks and refusals; the relay reports cuts now and then), so a
// run past a budget is code that went around the agent and writes frames itself: the run ends as protocol
// abuse, and the host's memory and time stay bounded whatever it writes. A session's budgets are per call.
import { formatBytes } from '../../../shared/limits.js';
import type { ArtifactCaps } from './artifact-collector.js';

export type BudgetedKind = 'display' | 'file' | 'imports' | 'output_cut' | 'other';

export interface Budget {
  frames: number;
  bytes: number;
}

/** What artifacts.py keeps to per call (its MAX_* constants), and out_files.py's file chunk size and omitted reports. */
export const AGENT_MAX_DISPLAY_FRAMES = 256;
export const AGENT_MAX_IMAGES = 64;
export const AGENT_MAX_IMAGE_BYTES = 64 * 1024 * 1024;
export const AGENT_FILE_CHUNK_BYTES = 1024 * 1024;
export const AGENT_MAX_OMITTED_REPORTS = 50;
/** Room for a frame's fields around its data (name, offsets, a title of 200 characters, escapes). */
const FRAME_OVERHEAD_BYTES = 2048;

const base64 = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** The budgets for one run with these artifact caps: twice what the agent can send, so it never comes near. */
export function frameBudgets(caps: ArtifactCaps): Record<BudgetedKind, Budget> {
  const displayFrames = AGENT_MAX_DISPLAY_FRAMES + 1; // the last one counts those the agent dropped
  const imageBytes = Math.min(AGENT_MAX_IMAGE_BYTES, AGENT_MAX_IMAGES * caps.imageCapBytes);
  const fileFrames = Math.ceil(caps.maxBytes / AGENT_FILE_CHUNK_BYTES) + caps.maxFiles * 2 + AGENT_MAX_OMITTED_REPORTS;
  return {
    display: { frames: 2 * displayFrames, bytes: 2 * (base64(imageBytes) + displayFrames * FRAME_OVERHEAD_BYTES) },
    file: { frames: 2 * fileFrames + 16, bytes: 2 * (base64(caps.maxBytes) + fileFrames * FRAME_OVERHEAD_BYTES) },
    // One frame at the end of the run, at most 64 module names.
    imports: { frames: 4, bytes: 64 * 1024 },
    // The relay reports a cut stream at the cut, every 5 s while the code goes on printing, and at the end.
    output_cut: { frames: 4096, bytes: 512 * 1024 },
    // `ready` and `preload` belong before a run; one late preload report is normal.
    other: { frames: 16, bytes: 256 * 1024 },
  };
}

const WHAT: Record<BudgetedKind, string> = {
  display: 'figure and image frames',
  file: '/workspace/out file frames',
  imports: 'import reports',
  output_cut: 'output-cut reports',
  other: 'start-up frames',
};

/** Counts one run's frames by kind; `charge` says in words when one goes past its budget. */
export class FrameBudget {
  private readonly used = new Map<BudgetedKind, Budget>();

  constructor(private readonly budgets: Record<BudgetedKind, Budget>) {}

  /** Null while within the budget; else why the run must end. */
  charge(kind: BudgetedKind, bytes: number): string | null {
    const used = this.used.get(kind) ?? { frames: 0, bytes: 0 };
    used.frames += 1;
    used.bytes += bytes;
    this.used.set(kind, used);
    const budget = this.budgets[kind];
    if (used.frames <= budget.frames && used.bytes <= budget.bytes) return null;
    return `the sandbox sent more ${WHAT[kind]} than a run may (at most ${budget.frames} frames and ${formatBytes(budget.bytes)})`;
  }
}
