// `sandbar run [FILE|-] [--timeout S] [--servers a,b] [--package REQ]... [--json]`: one execution, joined to a running instance
// (run-bridged.ts) or run here through the run service, which refuses what every surface refuses.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { ExitReason } from '../../shared/execution.js';
import { AppError } from '../../shared/errors.js';
import { displayLine } from '../../shared/display-text.js';
import { refusedLines } from '../../shared/egress-audit.js';
import type { CliContext } from './cli-context.js';

/** `sandbar: …`, a line of Sandbar's own beside the code's output: sanitised (its message may quote the code's text). */
const headerLine = (text: string) => `sandbar: ${displayLine(text, 2000)}\n`;

export const RUN_EXIT_CODES: Record<ExitReason, number> = {
  success: 0,
  error: 1,
  timeout: 124,
  memory: 137,
  cancelled: 130,
  output_limit: 1,
  runtime_error: 1,
  protocol_abuse: 1,
};

function readCode(file: string | undefined): string {
  if (!file || file === '-') {
    if (process.stdin.isTTY) throw new AppError('invalid_request', 'No code given: pass a file, or pipe code to `npm run -s sandbar -- run -`.');
    return readFileSync(0, 'utf8');
  }
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new AppError('invalid_request', `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run Python code once in a fresh sandbox (FILE, or - / nothing for stdin)')
    .argument('[file]', 'a Python file, or - for stdin')
    .option('-t, --timeout <seconds>', 'timeout in seconds (clamped to the maximum)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new AppError('invalid_request', `--timeout must be a whole number of seconds, got ${v}`);
      return n;
    })
    .option('-s, --servers <names>', 'comma-separated MCP servers to load as mcp_<alias>', (v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('-p, --package <requirement>', 'a package to install first (name or name==version); repeat for more', (v: string, all: string[] = []) => [...all, v])
    .option('--json', 'print the structured result instead of the output')
    .option('--no-bridge', 'always run here, even when a Sandbar instance is running for this home')
    .action(async (file: string | undefined, opts: { timeout?: number; servers?: string[]; package?: string[]; json?: boolean; bridge: boolean }) => {
      const code = readCode(file);
      const servers = [...new Set(opts.servers ?? [])];
      const packages = opts.package ?? [];
      if (opts.bridge) {
        // A running instance of this home has a warm pool and the history: join it (as `stdio` does).
        const [{ verifiedInstance }, { loadOrCreateToken }, { sandbarHome }] = await Promise.all([
          import('../instance-file.js'),
          import('../http/token-store.js'),
          import('../settings/paths.js'),
        ]);
        const home = sandbarHome(process.env);
        // The client token goes only to a listener that proved it is the recorded instance; else run here.
        const verified = await verifiedInstance(home);
        if (verified && !verified.ok) process.stderr.write(`sandbar: ${verified.reason} Running here instead.\n`);
        const instance = verified?.ok ? verified.instance : null;
        if (instance) {
          const { runBridged } = await import('./run-bridged.js');
          const target = { url: instance.url, token: loadOrCreateToken(home).token };
          const run = await runBridged(target, { code, servers, packages, ...(opts.timeout ? { timeout: opts.timeout } : {}), json: opts.json === true });
          if (run) {
            if (opts.json) process.stdout.write(`${JSON.stringify(run.structured, null, 2)}\n`);
            ctx.setExitCode(RUN_EXIT_CODES[run.exitReason] ?? 1);
            return;
          }
        }
      }
      // One run: a warm pool would only start a container nobody uses.
      const core = await ctx.createCore({ overrides: { poolSize: 0 }, oneShot: true });
      await core.start();
      // The run service refuses what every surface refuses (code size, unknown or denied servers, packages
      // that are malformed or that this backend cannot mount, ...).
      const abort = new AbortController();
      const stop = () => abort.abort();
      let ticket;
      try {
        ticket = await core.runs.start({ code, servers, packages, ...(opts.timeout ? { timeoutSec: opts.timeout } : {}) }, { client: { name: 'cli', transport: 'cli' } }, { signal: abort.signal });
      } catch (err) {
        await core.dispose();
        throw err;
      }
      if (!opts.json) {
        core.engine.subscribe((e) => {
          if (e.type === 'output' && e.id === ticket.id) (e.stream === 'stdout' ? process.stdout : process.stderr).write(e.data);
        });
      }
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const { execution: result } = await ticket.result;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (opts.json) {
        const { compactStructured, payloadFromResult } = await import('../mcp/result-format.js');
        process.stdout.write(`${JSON.stringify(compactStructured(payloadFromResult(result, servers)), null, 2)}\n`);
      } else {
        // The line that says where a stream was cut and how much was printed is not streamed: show it.
        const cuts = [result.stdout, result.stderr].flatMap((t) => /\[sandbar: [^\n]*\]\n$/.exec(t)?.[0] ?? []).join('');
        if (result.stdoutTruncated || result.stderrTruncated) process.stderr.write(`\n${result.message ? headerLine(result.message) : ''}${cuts}`);
        else if (result.exitReason !== 'success' && result.exitReason !== 'error') process.stderr.write(headerLine(result.message ?? result.exitReason));
        // Refused connections through the egress proxy, one line each, as the MCP result text has them.
        for (const line of refusedLines(result.egress ?? [], result.egressDropped ?? 0)) process.stderr.write(`${line}\n`);
      }
      await core.dispose();
      ctx.setExitCode(RUN_EXIT_CODES[result.exitReason]);
    });
}
