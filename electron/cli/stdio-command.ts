// `sandbar stdio`: MCP over stdin/stdout (stdio-run.ts, loaded only when the command runs).
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

export function registerStdioCommand(program: Command, ctx: CliContext): void {
  program
    .command('stdio')
    .description('serve MCP over stdio (nothing but protocol frames on stdout; logs on stderr); joins a running Sandbar if there is one')
    .option('--no-bridge', 'always run a separate engine, even when a Sandbar instance is running')
    .action(async (opts: { bridge: boolean }) => {
      const { runStdio } = await import('./stdio-run.js');
      await runStdio({ createCore: (options) => ctx.createCore(options), bridge: opts.bridge });
      ctx.exit(0);
    });
}
