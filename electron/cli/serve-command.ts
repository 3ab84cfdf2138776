// `sandbar serve [--port N]`: the MCP endpoint, the panel and its API on 127.0.0.1 (headless Sandbar).
import type { Command } from 'commander';
import { AppError } from '../../shared/errors.js';
import { createLogger } from '../logger.js';
import { createSandbarApp } from '../sandbar-app.js';
import { flagLayer } from '../settings/settings-layers.js';
import type { CliContext } from '../cli.js';
import { untilSignal } from './mcp-deps.js';

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
    .description('serve MCP over Streamable HTTP on 127.0.0.1 (default port 7337), with the panel at /')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort)
    .action(async (opts: { port?: number }) => {
      const log = createLogger('serve');
      const app = createSandbarApp({
        flags: flagLayer({ '--port': opts.port === undefined ? undefined : { path: 'httpPort', value: opts.port } }),
        log,
      });
      for (const warning of app.core.warnings) log.warn(warning);
      await app.start();
      const info = await app.router.call('endpoint.info', {});
      const tokenFile = info.ok ? (info.value as { tokenFile: string }).tokenFile : '';
      process.stdout.write(
        `Sandbar MCP endpoint: ${app.endpoint.url}\nAccess token file: ${tokenFile}\nPanel (keep this link private, it carries the token): ${app.panelUrl()}\n`,
      );

      const signal = await untilSignal();
      log.info(`${signal}: finishing runs in flight, then stopping`);
      await app.dispose(10_000);
      ctx.exit(0);
    });
}
