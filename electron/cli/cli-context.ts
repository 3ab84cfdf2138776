// What every `sandbar` command receives from the entry point (cli.ts), so commands never import it back.
import type { createCore, SandbarCore } from '../core.js';

/** Set by a command's action; commander's own errors use exit code 2 (usage). */
export interface CliContext {
  /** Loads the core on first use: `sandbar --help` and usage errors never pay for it. */
  createCore(options?: Parameters<typeof createCore>[0]): Promise<SandbarCore>;
  setExitCode(code: number): void;
  /** For long-running commands: exit once their clean-up is done, whatever handles linger. */
  exit(code: number): void;
}
