// One queued or running call as the engine keeps it: the request, its limits and abort, its host-call
// handler and session, and the promise its caller waits on.
import type { ExecutionRequest, ExecutionResult, ExecutionSummary } from '../../shared/execution.js';
import type { Limits } from '../../shared/limits.js';
import type { SessionBinding } from './engine-config.js';
import type { RpcHandler } from './run/execution.js';

export interface Job {
  summary: ExecutionSummary;
  request: ExecutionRequest;
  limits: Limits;
  abort: AbortController;
  rpc: RpcHandler | undefined;
  session: SessionBinding | undefined;
  /** The session heard how this call ended (afterRun); a call that never got that far is given back. */
  sessionTold?: boolean;
  resolve: (result: ExecutionResult) => void;
  result: Promise<ExecutionResult>;
  startedAt: number | null;
  containerName?: string;
}
