// A run that may call the user's MCP servers, as every surface starts one (run_python, the panel's
// Re-run): refuse unknown or denied servers, start the named ones (their start-up time is not the run's),
// then submit with their descriptions in the context and host calls limited to exactly them.
import type { ExecutionRequest } from '../../shared/execution.js';
import { errorMessage } from '../../shared/errors.js';
import type { PackageFetch } from '../../shared/packages.js';
import type { SandboxMcpContext } from '../../shared/proxy.js';
import type { Engine, ExecutionHandle, SessionBinding } from '../sandbox/engine.js';
import type { RpcHandler } from '../sandbox/run/execution.js';

/** The user's MCP servers as a run needs them (the ServerManager). */
export interface ServerCatalog {
  /** Why a run naming these servers is refused (unknown or denied), or null. */
  refusal(names: readonly string[]): string | null;
  /** Starts these servers if needed and describes them for the sandbox. */
  prepare(names: readonly string[]): Promise<SandboxMcpContext>;
  /** The host side of the sandbox's calls, limited to these servers. */
  rpcFor(names: readonly string[]): RpcHandler;
}

/** Installed package layers (the PackageManager bound to the current image). */
export interface PackageProvider {
  /** The layer's path inside the sandbox (null: the image has them all); throws with a reason. */
  prepare(requirements: readonly string[], signal?: AbortSignal): Promise<{ path: string | null; key: string | null; reused: boolean; fetches: PackageFetch[] }>;
}

export type SubmitOutcome = { ok: true; handle: ExecutionHandle } | { ok: false; message: string };

export async function submitWithServers(
  deps: { engine: Pick<Engine, 'submit'>; servers: ServerCatalog; packages?: PackageProvider },
  request: Omit<ExecutionRequest, 'servers' | 'context' | 'packages'> & { servers: string[]; packages?: string[] },
  options: { signal?: AbortSignal; session?: SessionBinding } = {},
): Promise<SubmitOutcome> {
  const { packages: requirements = [], ...rest } = request;
  const servers = [...new Set(request.servers)];
  const refusal = deps.servers.refusal(servers);
  if (refusal) return { ok: false, message: refusal };
  if (requirements.length > 0 && !deps.packages) return { ok: false, message: 'This Sandbar cannot install packages with its current runtime.' };
  let mcp: SandboxMcpContext;
  let prepared: Awaited<ReturnType<PackageProvider['prepare']>> | null;
  try {
    // Servers start and packages install at the same time; neither counts against the run's timeout.
    [mcp, prepared] = await Promise.all([
      deps.servers.prepare(servers),
      requirements.length > 0 && deps.packages ? deps.packages.prepare(requirements, options.signal) : Promise.resolve(null),
    ]);
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
  const context = { mcp, ...(prepared?.path ? { packages: prepared.path } : {}) };
  const packages = prepared ? { packages: { requirements: [...requirements], layer: prepared.key, reused: prepared.reused, fetches: prepared.fetches } } : {};
  const handle = deps.engine.submit({ ...rest, servers, context, ...packages }, { ...options, rpc: deps.servers.rpcFor(servers) });
  return { ok: true, handle };
}
