// `sandbar history [--limit N] [--status S] [--search TEXT] [--json]`: the recorded executions, newest first.
import type { Command } from 'commander';
import { AppError } from '../../shared/errors.js';
import type { CliContext } from './cli-context.js';

export function registerHistoryCommand(program: Command, ctx: CliContext): void {
  program
    .command('history')
    .description('list recorded executions, newest first')
    .option('-n, --limit <n>', 'how many rows (1-500, default 20)')
    .option('-s, --status <status>', 'only these statuses, comma-separated (success, error, timeout, memory, cancelled, output_limit, runtime_error, protocol_abuse, interrupted, queued, running)')
    .option('-q, --search <text>', 'full-text search over code and output: words by their beginning (4+ letters), "quoted text" exactly')
    .option('--json', 'print the page as JSON')
    .action(async (opts: { limit?: string; status?: string; search?: string; json?: boolean }) => {
      const { formatHistoryJson, formatHistoryTable, historyQueryFromFlags } = await import('../history/history-cli-format.js');
      const query = historyQueryFromFlags(opts);
      const core = await ctx.createCore({ overrides: { poolSize: 0 } });
      await core.history.start();
      try {
        const health = core.history.health();
        if (!health.available) throw new AppError('internal', `The history database is not available: ${health.error ?? 'unknown reason'}`);
        const page = core.history.list(query);
        process.stdout.write(opts.json ? formatHistoryJson(page) : formatHistoryTable(page));
      } finally {
        await core.history.pruning?.catch(() => {});
        core.history.dispose();
      }
    });
}
