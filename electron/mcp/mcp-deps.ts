// What the MCP server is made of, shared by `sandbar stdio` and the HTTP listener (serve, desktop): the run
// service, the settings and the runs' artifacts. The composition (sandbar-app.ts, cli/stdio-run.ts) hands
// them in; nothing here knows the core.
import { randomUUID } from 'node:crypto';
import type { FolderInfo } from '../../shared/folders.js';
import type { Settings } from '../../shared/settings.js';
import type { Logger } from '../logger.js';
import type { McpServerDeps } from './server-factory.js';
import type { ArtifactStore } from './artifact-resource.js';
import { packageInfo } from '../package-info.js';
import { HeldRuns } from './held-runs.js';
import { RequestStateSigner } from './request-state.js';
import type { RunPythonDeps } from './run-python-handler.js';
import type { RunOwners } from './run-owners.js';
import { RunViewRuns } from './run-view-runs.js';
import type { RunViewDeps } from './run-view-tools.js';
import type { Engine } from '../sandbox/engine.js';
import type { ApprovalBroker } from '../proxy/approval-broker.js';

/** The run view's runs and the questions it may answer: one per instance (every HTTP session's server and both revisions share it). */
export function runViewDeps(engine: Pick<Engine, 'subscribe' | 'snapshot'>, broker: Pick<ApprovalBroker, 'list' | 'decide'>): RunViewDeps {
  return { runs: new RunViewRuns(engine), pending: () => broker.list(), decide: (id, decision, by) => broker.decide(id, decision, by) };
}

export interface McpParts {
  runs: RunPythonDeps['runs'];
  settings: () => Settings;
  artifacts: ArtifactStore;
  /** Who made each run, across every session and both revisions: artifacts go to that caller only. */
  owners: RunOwners;
  /** The MCP App's view of runs (absent: no app-only tools). */
  runView?: RunViewDeps;
  /** The user's folders every sandbox mounts now (the capabilities resource lists them). */
  folders?: () => FolderInfo[];
}

export function mcpDeps(parts: McpParts, transport: 'stdio' | 'http', log: Logger, connection?: string): McpServerDeps {
  return {
    runs: parts.runs,
    settings: parts.settings,
    log,
    version: packageInfo().version,
    transport,
    artifacts: parts.artifacts,
    owners: parts.owners,
    ...(connection ? { connection } : {}),
    ...(parts.runView ? { runView: parts.runView } : {}),
    ...(parts.folders ? { folders: parts.folders } : {}),
  };
}

/** A stdio connection's id: the caller over stdio (caller.ts). */
export const newConnectionId = (): string => randomUUID();

/**
 * One per instance: the runs whose 2026-07-28 callers are being asked something, and the key their request
 * states are signed with (in memory only: a restart ends every held run, so no state outlives it).
 * States last as long as an approval may wait.
 */
export function heldRunsFor(parts: McpParts, log: Logger): HeldRuns {
  const signer = new RequestStateSigner({ ttlMs: () => parts.settings().approvalTimeoutSec * 1000 });
  return new HeldRuns({ runs: parts.runs, settings: parts.settings, signer, log });
}
