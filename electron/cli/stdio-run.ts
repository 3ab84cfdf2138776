// MCP over stdin/stdout for clients that launch their servers (Claude Desktop): `sandbar stdio` and the
// packaged app's `--stdio`. When a Sandbar already serves this home, it bridges to that instance, so every
// client shares one engine and one history; otherwise it runs its own engine.
import { folderInfoOf } from '../../shared/folders.js';
import type { SandbarCore } from '../core.js';
import { createLogger } from '../logger.js';
import { loadOrCreateToken } from '../http/token-store.js';
import { createMcpServer } from '../mcp/server-factory.js';
import { findRunningInstance } from '../instance-file.js';
import { bridgeStdio } from '../mcp/stdio-bridge.js';
import { serveStdioEitherRevision } from '../mcp/stdio-endpoint.js';
import { createModernMcpServer } from '../mcp/modern-server.js';
import { RunOwners } from '../mcp/run-owners.js';
import { sandbarHome } from '../settings/paths.js';
import { heldRunsFor, mcpDeps, runViewDeps, newConnectionId } from '../mcp/mcp-deps.js';
import { untilSignal } from './signals.js';

interface Closable {
  close(): Promise<void>;
}

export async function runStdio(options: {
  createCore: (options: { env: NodeJS.ProcessEnv }) => SandbarCore | Promise<SandbarCore>;
  env?: NodeJS.ProcessEnv;
  bridge?: boolean;
}): Promise<void> {
  const env = options.env ?? process.env;
  const log = createLogger('stdio', env);
  if (options.bridge !== false) {
    const home = sandbarHome(env);
    const target = await findRunningInstance(home, loadOrCreateToken(home).token, (reason) => log.warn(`${reason} Serving here instead.`));
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
  // One connection, one caller: both revisions' handlers see the same credential (mcp/caller.ts).
  const mcp = { runs: core.runs, settings: () => core.settings, artifacts: core.history, owners: new RunOwners(), runView: runViewDeps(core.engine, core.approvals.broker), folders: () => core.folders().mounts.map(folderInfoOf) };
  const deps = mcpDeps(mcp, 'stdio', log, newConnectionId());
  const held = heldRunsFor(mcp, log);
  const servers: Closable[] = [];
  const made = <S extends Closable>(server: S): S => (servers.push(server), server);
  const serving = serveStdioEitherRevision({
    legacy: () => made(createMcpServer(deps)),
    modern: () => made(createModernMcpServer({ ...deps, held })),
    onerror: (err) => log.debug(`stdio: ${err.message}`),
  });
  const reason = await Promise.race([serving.then(() => 'stdin closed'), untilSignal()]);
  log.info(`stopping (${reason})`);
  await Promise.allSettled(servers.map((s) => s.close()));
  await core.dispose(5000);
}
