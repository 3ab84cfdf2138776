// One logger, always to stderr: stdout belongs to protocol frames (stdio) or to command output (CLI). A
// long-running instance (serve, desktop) also sends every line to its log file (log-file.ts).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Where every logger also writes, once a long-running instance opened its log file. */
let fileSink: ((line: string) => void) | undefined;

/** Sends every logger's lines to `sink` too (null stops it); returns the previous sink. */
export function logToFile(sink: ((line: string) => void) | null): ((line: string) => void) | undefined {
  const previous = fileSink;
  fileSink = sink ?? undefined;
  return previous;
}

export function createLogger(scope: string, env: NodeJS.ProcessEnv = process.env, write = (line: string) => process.stderr.write(line)): Logger {
  const wanted = (env.SANDBAR_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const threshold = ORDER[wanted] ?? ORDER.info;
  const log = (level: LogLevel) => (message: string) => {
    if (ORDER[level] < threshold) return;
    const line = `${new Date().toISOString()} ${level.padEnd(5)} [${scope}] ${message}\n`;
    write(line);
    fileSink?.(line);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
