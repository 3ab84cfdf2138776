// Whether the desktop smoke test can run here, decided before anything starts: an Electron binary (the
// npm package may be installed without one), a display on Linux (xvfb-run provides one), and whether a
// missing piece is a skip (a developer machine, this project's CI) or a failure (the GitHub workflow).
import type { BinaryLookup } from '../../electron/shell/electron-binary.js';

export { locateElectron, type BinaryLookup } from '../../electron/shell/electron-binary.js';

/** Set by the workflow that installed Electron: a missing binary is then a failure, not a skip. */
export const REQUIRE_ELECTRON_ENV = 'SANDBAR_REQUIRE_ELECTRON';
/** Set where a container runtime and the image must be there (the Linux job): no run is then a failure. */
export const REQUIRE_RUNTIME_ENV = 'SANDBAR_REQUIRE_RUNTIME';

const truthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
export const required = (env: NodeJS.ProcessEnv, name: string): boolean => truthy(env[name]);

export type SmokePlan =
  | { action: 'run'; electron: string }
  /** Start this command instead (the same script under xvfb-run). */
  | { action: 'rerun'; command: string; args: string[] }
  /** Print `line` (one line) and exit with `exitCode`. */
  | { action: 'stop'; line: string; exitCode: 0 | 1 };

export const XVFB_ARGS = ['--auto-servernum', '--server-args=-screen 0 1280x960x24'];

export function planSmoke(options: {
  binary: BinaryLookup;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The command that started this script (`process.execPath` and its arguments), to re-run under xvfb-run. */
  self: { command: string; args: string[] };
  hasXvfbRun: boolean;
}): SmokePlan {
  const mustRun = required(options.env, REQUIRE_ELECTRON_ENV);
  const stop = (why: string): SmokePlan =>
    mustRun
      ? { action: 'stop', exitCode: 1, line: `test:electron: FAILED, ${why} (${REQUIRE_ELECTRON_ENV} is set, so the smoke test must run)` }
      : { action: 'stop', exitCode: 0, line: `test:electron: skipped, ${why}` };
  if (!options.binary.found) return stop(`no Electron binary: ${options.binary.reason}`);
  const headless = options.platform === 'linux' && !options.env.DISPLAY && !options.env.WAYLAND_DISPLAY;
  if (headless) {
    if (!options.hasXvfbRun) return stop('no display and no xvfb-run (apt-get install xvfb)');
    return { action: 'rerun', command: 'xvfb-run', args: [...XVFB_ARGS, options.self.command, ...options.self.args] };
  }
  return { action: 'run', electron: options.binary.path };
}
