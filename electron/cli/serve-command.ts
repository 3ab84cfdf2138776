// `sandbar serve [--port N]`: the MCP endpoint on 127.0.0.1 (the panel joins it later).
import type { Command } from 'commander';
import { AppError } from '../../shared/errors.js';
import { createLogger } from '../logger.js';
import { HttpEndpoint } from '../mcp/http/http-endpoint.js';
import { loadOrCreateToken } from '../mcp/http/token-store.js';
import { createMcpServer } from '../mcp/server-factory.js';
import { flagLayer } from '../settings/settings-layers.js';
import type { CliContext } from '../cli.js';
import { mcpDeps, untilSignal } from './mcp-deps.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AppError('invalid_config', `Invalid --port ${value}: must be a whole number from 0 to 65535 (0 picks a free port)`);
  }
  return port;
}

export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('serve MCP over Streamable HTTP on 127.0.0.1 (default port 7337)')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort)
    .action(async (opts: { port?: number }) => {
      const log = createLogger('serve');
      const core = ctx.createCore({ flags: flagLayer({ '--port': opts.port === undefined ? undefined : { path: 'httpPort', value: opts.port } }) });
      for (const warning of core.warnings) log.warn(warning);
      const token = loadOrCreateToken(core.home);
      if (token.created) log.info(`created a new access token in ${token.file}`);
      const endpoint = new HttpEndpoint({
        port: core.settings.httpPort,
        token: () => token.token,
        tokenFile: token.file,
        createServer: () => createMcpServer(mcpDeps(core, 'http', log)),
        log,
      });
      await endpoint.start();
      await core.start();
      core.watchServers();
      process.stdout.write(`Sandbar MCP endpoint: ${endpoint.url}\nAccess token file: ${token.file}\n`);

      const signal = await untilSignal();
      log.info(`${signal}: finishing runs in flight, then stopping`);
      // Order matters: refuse new work, let running calls answer (bounded), then close sessions.
      endpoint.stopAccepting();
      await core.dispose(10_000);
      await endpoint.close();
      ctx.exit(0);
    });
}
