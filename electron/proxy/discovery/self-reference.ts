// Recognises config entries that would launch Sandbar itself (or the reference bridge it replaces): loading
// one would make every run start another Sandbar, which proxies to another, and so on.
import type { ServerConfig } from '../../../shared/proxy.js';

const REFERENCE_TOKENS = ['mcp-server-code-execution-mode', 'mcp_server_code_execution_mode'];
const REFERENCE_SCRIPT = 'mcp_server_code_execution_mode.py';
const SELF_NAMES = new Set(['sandbar', ...REFERENCE_TOKENS]);
/** Programs that run a script or folder given as an argument (`node /x/sandbar`, `electron ~/src/sandbar --stdio`). */
const LAUNCHERS = new Set(['node', 'nodejs', 'electron', 'bun', 'deno', 'tsx', 'env']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);

/** Config files written on Windows use `\`; they may be read anywhere. */
function baseName(value: string): string {
  return (value.split(/[\\/]/).pop() ?? '').toLowerCase();
}

function withoutExeSuffix(base: string): string {
  return base.replace(/\.(exe|cmd|bat|ps1)$/, '');
}

function isReferenceProgram(value: string): boolean {
  const base = baseName(value);
  return REFERENCE_TOKENS.includes(withoutExeSuffix(base)) || base.endsWith(REFERENCE_SCRIPT);
}

/**
 * A path that can only be Sandbar: the packaged app (`Sandbar.app/…`, `Sandbar.exe`, a Sandbar AppImage,
 * npm's `sandbar.cmd` shim) or the CLI script of a checkout or global install (`…/sandbar/dist/electron/cli.js`).
 */
function isSandbarPath(value: string): boolean {
  const lower = value.toLowerCase().replace(/\\/g, '/');
  const base = baseName(value);
  if (/^sandbar\.(exe|cmd|bat|ps1)$/.test(base) || /^sandbar([-_ ].*)?\.appimage$/.test(base)) return true;
  if (lower.includes('/sandbar.app/')) return true;
  return lower.includes('sandbar') && /(^|\/)electron\/cli\.(c|m)?(js|ts)$/.test(lower);
}

/** The npm package or bin name as `npx`, `bunx`, `pnpm dlx` and `npm exec` take it: `sandbar`, `sandbar@latest`. */
function isSandbarPackage(arg: string): boolean {
  return /^sandbar(@[^\s/]*)?$/i.test(arg);
}

export function isOwnEndpoint(value: string, ownPort: number | null): boolean {
  if (ownPort === null) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) return false;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return port === ownPort && url.pathname.replace(/\/+$/, '') === '/mcp';
}

/** Why the entry is Sandbar or the reference bridge, or null when it is some other server. */
export function selfReference(server: ServerConfig, ownPort: number | null): string | null {
  if (SELF_NAMES.has(server.name.toLowerCase())) return `The name "${server.name}" is Sandbar’s own.`;
  if (server.url !== undefined && isOwnEndpoint(server.url, ownPort)) return 'The url is Sandbar’s own MCP endpoint.';
  const command = server.command ?? '';
  const commandBase = withoutExeSuffix(baseName(command));
  if (commandBase === 'sandbar' || isSandbarPath(command)) return 'The command starts Sandbar.';
  if (isReferenceProgram(command)) return 'The command starts the reference bridge (mcp-server-code-execution-mode).';
  const launcher = LAUNCHERS.has(commandBase);
  for (const arg of server.args) {
    if (isSandbarPackage(arg) || isSandbarPath(arg) || (launcher && withoutExeSuffix(baseName(arg)) === 'sandbar')) {
      return `The argument "${arg}" starts Sandbar.`;
    }
    if (isReferenceProgram(arg)) return `The argument "${arg}" starts the reference bridge.`;
    // A stdio-to-HTTP bridge such as `npx mcp-remote http://127.0.0.1:7337/mcp`.
    if (isOwnEndpoint(arg, ownPort)) return `The argument "${arg}" is Sandbar’s own MCP endpoint.`;
  }
  return null;
}
