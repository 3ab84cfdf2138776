// `sandbar stdio`: MCP over stdin/stdout for clients that launch their servers (Claude Desktop).
import type { Command } from 'commander';
import { createLogger } from '../logger.js';
import { createMcpServer } from '../mcp/server-factory.js';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import type { CliContext } from '../cli.js';
import { mcpDeps, untilSignal } from './mcp-deps.js';

export function registerStdioCommand(program: Command, ctx: CliContext): void {
  program
    .command('stdio')
    .description('serve MCP over stdio (nothing but protocol frames on stdout; logs on stderr)')
    .action(async () => {
      const log = createLogger('stdio');
      const core = ctx.createCore();
      for (const warning of core.warnings) log.warn(warning);
      await core.start();
      core.watchServers();
      const server = createMcpServer(mcpDeps(core, 'stdio', log));
      const reason = await Promise.race([serveStdio(server).then(() => 'stdin closed'), untilSignal()]);
      log.info(`stopping (${reason})`);
      await server.close().catch(() => {});
      await core.dispose(5000);
      ctx.exit(0);
    });
}
