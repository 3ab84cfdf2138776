// What the MCP server needs from the core, shared by `sandbar stdio` and the HTTP listener (serve, desktop).
import { randomUUID } from 'node:crypto';
import type { SandbarCore } from '../core.js';
import type { Logger } from '../logger.js';
import type { McpServerDeps } from './server-factory.js';
import { packageInfo } from '../package-info.js';
import { HeldRuns } from './held-runs.js';
import { RequestStateSigner } from './request-state.js';
import { RunViewRuns } from './run-view-runs.js';
import type { RunViewDeps } from './run-view-tools.js';

/** The run view's runs, one set per instance (every HTTP session's server and both revisions share it). */
const runViews = new WeakMap<SandbarCore, RunViewDeps>();

function runViewFor(core: SandbarCore): RunViewDeps {
  let deps = runViews.get(core);
  if (!deps) {
    const broker = core.approvals.broker;
    deps = { runs: new RunViewRuns(core.engine), pending: () => broker.list(), decide: (id, decision, by) => broker.decide(id, decision, by) };
    runViews.set(core, deps);
  }
  return deps;
}

export function mcpDeps(core: SandbarCore, transport: 'stdio' | 'http', log: Logger, connection?: string): McpServerDeps {
  return {
    engine: core.engine,
    settings: () => core.settings,
    servers: core.servers,
    packages: core.packages,
    approvals: { pending: () => core.approvals.broker.list(), addChannel: core.approvals.addChannel },
    log,
    version: packageInfo().version,
    transport,
    artifacts: core.history,
    ...(connection ? { connection } : {}),
    sessions: core.sessions,
    runView: runViewFor(core),
  };
}

/** A stdio connection's id: the caller over stdio (caller.ts). */
export const newConnectionId = (): string => randomUUID();

/**
 * One per instance: the runs whose 2026-07-28 callers are being asked something, and the key their request
 * states are signed with (in memory only: a restart ends every held run, so no state outlives it).
 * States last as long as an approval may wait.
 */
export function heldRunsFor(core: SandbarCore, log: Logger): HeldRuns {
  const signer = new RequestStateSigner({ ttlMs: () => core.settings.approvalTimeoutSec * 1000 });
  return new HeldRuns({
    engine: core.engine,
    settings: () => core.settings,
    approvals: { pending: () => core.approvals.broker.list(), addChannel: core.approvals.addChannel },
    signer,
    log,
  });
}
