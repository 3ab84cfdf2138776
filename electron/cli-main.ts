// The `sandbar` command (loaded by the entry, cli.ts). Exit statuses are a stable contract (SPEC 1): run → 0
// success, 1 error, 124 timeout, 137 memory; doctor → 0 only when code can run safely.
import { Command, CommanderError } from 'commander';
import { AppError, errorMessage } from '../shared/errors.js';
import type { CliContext } from './cli/cli-context.js';
import { registerApprovalsCommands } from './cli/approvals-command.js';
import { registerDoctorCommand } from './cli/doctor-command.js';
import { registerHistoryCommand } from './cli/history-command.js';
import { registerImageCommand } from './cli/image-command.js';
import { registerRunCommand } from './cli/run-command.js';
import { registerServeCommand } from './cli/serve-command.js';
import { registerStdioCommand } from './cli/stdio-command.js';
import { packageInfo } from './package-info.js';


async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('sandbar')
    .description('Run AI agents\' Python in hardened single-use containers, over MCP.')
    .version(packageInfo().version, '-v, --version')
    .showHelpAfterError()
    .exitOverride();
  const ctx: CliContext = {
    createCore: async (options) => (await import('./core.js')).createCore(options),
    setExitCode: (code) => (exitCode = code), exit: (code) => process.exit(code) };
  registerRunCommand(program, ctx);
  registerDoctorCommand(program, ctx);
  registerStdioCommand(program, ctx);
  registerServeCommand(program, ctx);
  registerHistoryCommand(program, ctx);
  registerImageCommand(program, ctx);
  registerApprovalsCommands(program, ctx);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // People see a sentence, not a stack trace.
    console.error(`sandbar: ${errorMessage(err)}`);
    process.exitCode = err instanceof AppError && err.code === 'invalid_config' ? 2 : 1;
  },
);
