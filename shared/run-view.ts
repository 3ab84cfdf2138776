// The run view: the MCP App (an HTML View a client that implements MCP Apps shows beside a run_python
// call) and the two app-only tools it calls through its host. One vocabulary for the server that serves
// and answers it (electron/mcp/run-view-*.ts) and the View itself (renderer/mcp-app/).

/** The View's resource: `run_python`'s `_meta.ui.resourceUri` names it. */
export const RUN_VIEW_URI = 'ui://sandbar/run.html';

/**
 * App-only tools (`_meta.ui.visibility: ["app"]`): hosts keep them from the model and let the View call
 * them. They are listed only to clients that declare MCP Apps, and act only on the caller's own runs.
 */
export const RUN_VIEW_STATUS_TOOL = 'sandbar_run_view_status';
export const RUN_VIEW_ANSWER_TOOL = 'sandbar_run_view_answer';

/** How often the View asks for the live state while the run goes. */
export const RUN_VIEW_POLL_MS = 700;

/** The answers the View's buttons give: Allow (this call once) and Deny. */
export const RUN_VIEW_DECISIONS = ['allow-once', 'deny'] as const;
export type RunViewDecision = (typeof RUN_VIEW_DECISIONS)[number];

/** What `sandbar_run_view_status` takes: the call's arguments (as the host gave them) or, once known, its run. */
export interface RunViewStatusArgs {
  /** The run_python arguments: the newest of the caller's runs with the same arguments is the one. */
  arguments?: Record<string, unknown>;
  runId?: string;
}

/** A question waiting about one of the run's tool calls (raw: the View sanitises what it shows). */
export interface RunViewQuestion {
  id: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  codeLine?: string;
  expiresAt: number;
  /** Identical calls of the run waiting on this one question, when the broker merged them. */
  calls?: number;
}

/** The live state of one run, as `sandbar_run_view_status` returns it in `structuredContent`. */
export interface RunViewStatus {
  /** `unknown`: no run of this caller matches (yet: packages may still be preparing). */
  state: 'unknown' | 'queued' | 'running' | 'finished';
  runId?: string;
  /** The output so far (its last 64 Ki characters per stream; `clipped` when that is not from the first byte). */
  stdout: string;
  stderr: string;
  clipped: boolean;
  questions: RunViewQuestion[];
}

/** What `sandbar_run_view_answer` takes. */
export interface RunViewAnswerArgs {
  runId: string;
  approvalId: string;
  decision: RunViewDecision;
}

/** Recorded as the answer's `by` in the history's approvals. */
export const RUN_VIEW_ANSWERED_BY = 'app';
