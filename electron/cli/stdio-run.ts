// MCP over stdin/stdout for clients that launch their servers (Claude Desktop): `sandbar stdio` and the
// packaged app's `--stdio`. When a Sandbar already serves this home, it bridges to that instance, so every
// client shares one engine and one history; otherwise it runs its own engine.
import type { SandbarCore } from '../core.js';
import { createLogger } from '../logger.js';
import { loadOrCreateToken } from '../http/token-store.js';
import { createMcpServer } from '../mcp/server-factory.js';
import { findRunningInstance } from '../instance-file.js';
import { bridgeStdio } from '../mcp/stdio-bridge.js';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import { sandbarHome } from '../settings/paths.js';
import { mcpDeps } from '../mcp/mcp-deps.js';
import { untilSignal } from './signals.js';

export async function runStdio(options: {
  createCore: (options: { env: NodeJS.ProcessEnv }) => SandbarCore | Promise<SandbarCore>;
  env?: NodeJS.ProcessEnv;
  bridge?: boolean;
}): Promise<void> {
  const env = options.env ?? process.env;
  const log = createLogger('stdio', env);
  if (options.bridge !== false) {
    const home = sandbarHome(env);
    const target = await findRunningInstance(home, loadOrCreateToken(home).token);
    if (target) {
      log.info(`joining the running Sandbar at ${target.url}`);
      const reason = await Promise.race([bridgeStdio(target, log), untilSignal()]);
      log.info(`stopping (${reason})`);
      return;
    }
  }
  const core = await options.createCore({ env });
  for (const warning of core.warnings) log.warn(warning);
  await core.start();
  core.watchServers();
  const server = createMcpServer(mcpDeps(core, 'stdio', log));
  const reason = await Promise.race([serveStdio(server).then(() => 'stdin closed'), untilSignal()]);
  log.info(`stopping (${reason})`);
  await server.close().catch(() => {});
  await core.dispose(5000);
}
