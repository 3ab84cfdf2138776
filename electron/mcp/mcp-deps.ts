// What the MCP server needs from the core, shared by `sandbar stdio` and the HTTP listener (serve, desktop).
import type { SandbarCore } from '../core.js';
import type { Logger } from '../logger.js';
import type { McpServerDeps } from './server-factory.js';
import { packageInfo } from '../package-info.js';

export function mcpDeps(core: SandbarCore, transport: 'stdio' | 'http', log: Logger): McpServerDeps {
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
    sessions: core.sessions,
  };
}
