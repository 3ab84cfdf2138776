// How long-running commands (serve, stdio) learn that they should stop.
/** How soon a repeated signal counts as a person insisting, not as a re-raise. */
const INSIST_AFTER_MS = 1000;

/**
 * Resolves on the first SIGINT or SIGTERM. The listeners stay installed: execa's signal-exit re-raises a
 * signal when it counts no other listener, which would kill the process in the middle of its graceful
 * stop. A repeat within a second is that re-raise and is ignored; a later one means "stop now".
 */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let firstAt: number | null = null;
    const on = (signal: NodeJS.Signals) => {
      if (firstAt === null) {
        firstAt = Date.now();
        resolve(signal);
      } else if (Date.now() - firstAt > INSIST_AFTER_MS) {
        process.exit(signal === 'SIGINT' ? 130 : 143);
      }
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
