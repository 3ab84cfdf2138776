// What the MCP server needs from the core, shared by `sandbar stdio` and `sandbar serve`.
import type { SandbarCore } from '../app.js';
import type { Logger } from '../logger.js';
import type { McpServerDeps } from '../mcp/server-factory.js';
import { packageInfo } from '../package-info.js';

export function mcpDeps(core: SandbarCore, transport: 'stdio' | 'http', log: Logger): McpServerDeps {
  return {
    engine: core.engine,
    settings: () => core.settings,
    servers: core.servers,
    log,
    version: packageInfo().version,
    transport,
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received: NodeJS.Signals | null = null;
    // The listeners stay installed: execa's signal-exit re-raises a signal nobody else listens to, which
    // would kill the process in the middle of its graceful stop. A second signal means "stop now".
    const on = (signal: NodeJS.Signals) => {
      if (received) process.exit(signal === 'SIGINT' ? 130 : 143);
      received = signal;
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
