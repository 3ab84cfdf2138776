// `sandbar serve [--port N]`: the MCP endpoint, the panel and its API on 127.0.0.1 (headless Sandbar).
import type { Command } from 'commander';
import { AppError } from '../../shared/errors.js';
import { createLogger } from '../logger.js';
import type { CliContext } from './cli-context.js';
import { untilSignal } from './signals.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AppError('invalid_config', `Invalid --port ${value}: must be a whole number from 0 to 65535 (0 picks a free port)`);
  }
  return port;
}

/** What `serve` prints: where clients connect and, unless told not to, the panel link with its token. */
export function serveBanner(mcpUrl: string, files: { client: string; panel: string }, panelUrl: string | null): string {
  const panel = panelUrl
    ? `Panel (keep this link private, it carries the panel token): ${panelUrl}`
    : `Panel: ${mcpUrl.replace(/\/mcp$/, '/')} (open it with #token= followed by the contents of ${files.panel})`;
  return `Sandbar MCP endpoint: ${mcpUrl}\nClient token file (for MCP clients): ${files.client}\nPanel token file: ${files.panel}\n${panel}\n`;
}

export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('serve MCP over Streamable HTTP on 127.0.0.1 (default port 7337), with the panel at /')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort)
    .option('--no-print-token', 'print the panel link without its token (for services whose output is logged)')
    .action(async (opts: { port?: number; printToken: boolean }) => {
      // One engine per home: before anything is loaded or started, refuse beside a running instance.
      const [{ claimHome, alreadyRunningLine }, { sandbarHome }] = await Promise.all([import('../instance-lock.js'), import('../settings/paths.js')]);
      const home = sandbarHome(process.env);
      const claim = claimHome(home);
      if (!claim.ok) {
        process.stderr.write(`sandbar: ${alreadyRunningLine(home, claim.holder)}\n`);
        ctx.setExitCode(1);
        return;
      }
      // Released however this process ends (a start that throws, a signal, the normal exit below).
      process.once('exit', claim.release);
      const log = createLogger('serve');
      const [{ createSandbarApp }, { flagLayer }] = await Promise.all([import('../sandbar-app.js'), import('../settings/settings-layers.js')]);
      const app = createSandbarApp({
        flags: flagLayer({ '--port': opts.port === undefined ? undefined : { path: 'httpPort', value: opts.port } }),
        log,
      });
      for (const warning of app.core.warnings) log.warn(warning);
      await app.start();
      process.stdout.write(serveBanner(app.endpoint.url, app.tokenFiles, opts.printToken ? app.panelUrl() : null));

      const signal = await untilSignal();
      log.info(`${signal}: finishing runs in flight, then stopping`);
      await app.dispose(10_000);
      ctx.exit(0);
    });
}
