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
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
