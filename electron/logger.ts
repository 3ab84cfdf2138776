// One logger, always to stderr: stdout belongs to protocol frames (stdio) or to command output (CLI).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(scope: string, env: NodeJS.ProcessEnv = process.env, write = (line: string) => process.stderr.write(line)): Logger {
  const wanted = (env.SANDBAR_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const threshold = ORDER[wanted] ?? ORDER.info;
  const log = (level: LogLevel) => (message: string) => {
    if (ORDER[level] >= threshold) write(`${new Date().toISOString()} ${level.padEnd(5)} [${scope}] ${message}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
