// `sandbar stdio` (and the packaged app's `--stdio`): MCP over stdin/stdout for clients that launch
// their servers (Claude Desktop). When a Sandbar already serves this home, it bridges to that instance,
// so every client shares one engine and one history; otherwise it runs its own engine.
import type { Command } from 'commander';
import type { createCore } from '../core.js';
import { createLogger } from '../logger.js';
import { loadOrCreateToken } from '../http/token-store.js';
import { createMcpServer } from '../mcp/server-factory.js';
import { bridgeStdio, findRunningInstance } from '../mcp/stdio-bridge.js';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import { sandbarHome } from '../settings/paths.js';
import type { CliContext } from './cli-context.js';
import { mcpDeps } from '../mcp/mcp-deps.js';
import { untilSignal } from './signals.js';

export async function runStdio(options: { createCore: typeof createCore; env?: NodeJS.ProcessEnv; bridge?: boolean }): Promise<void> {
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
  const core = options.createCore({ env });
  for (const warning of core.warnings) log.warn(warning);
  await core.start();
  core.watchServers();
  const server = createMcpServer(mcpDeps(core, 'stdio', log));
  const reason = await Promise.race([serveStdio(server).then(() => 'stdin closed'), untilSignal()]);
  log.info(`stopping (${reason})`);
  await server.close().catch(() => {});
  await core.dispose(5000);
}

export function registerStdioCommand(program: Command, ctx: CliContext): void {
  program
    .command('stdio')
    .description('serve MCP over stdio (nothing but protocol frames on stdout; logs on stderr); joins a running Sandbar if there is one')
    .option('--no-bridge', 'always run a separate engine, even when a Sandbar instance is running')
    .action(async (opts: { bridge: boolean }) => {
      await runStdio({ createCore: ctx.createCore, bridge: opts.bridge });
      ctx.exit(0);
    });
}
