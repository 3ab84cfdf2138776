// The in-container agent is never mounted: the container runs `python3 -c BOOTSTRAP_SOURCE`, and the host
// writes one JSON line (the boot payload) to its stdin. The bootstrap execs the agent source from it.
import { readFileSync } from 'node:fs';
import { assetPath } from '../../asset-path.js';
import type { FontList, PreloadPlan } from '../warm-imports.js';

/**
 * One line of Python, safe to pass as a single argv element. It reads exactly one line from stdin, so
 * the host must not write anything else until the agent has answered with its `ready` frame.
 */
export const BOOTSTRAP_SOURCE =
  "import sys,json;b=json.loads(sys.stdin.buffer.readline());" +
  "exec(compile(b['agent'],'<sandbar-agent>','exec'),{'__name__':'__sandbar_agent__','BOOT':b})";

export interface BootPayload {
  agent: string;
  /** The agent exits by itself if no `start` frame arrives in this time (a backstop for leaked pools). */
  idleTimeoutSec: number;
  /** Largest single frame the agent may send; bigger RPC requests fail inside the sandbox. */
  maxFrameBytes: number;
  /** Extra pure-Python modules the agent registers in sys.modules before user code runs. */
  modules: Record<string, string>;
  /** Where the code's files to hand back go (made at boot); absent: none are collected. */
  outDir?: string;
  /** Pooled containers: modules to import before `ready` (agent/warm_imports.py). */
  preload?: PreloadPlan;
  /** Matplotlib's font list for this image, written where Matplotlib looks for it. */
  mplFontCache?: FontList;
}

let agentSource: string | undefined;

/**
 * The agent is one source in five files (frame channel, relay, host calls, checkpoints, main loop), joined in this order and
 * compiled as one unit, so tracebacks still know every agent frame by one file name.
 */
const AGENT_FILES = ['agent_channel.py', 'agent_relay.py', 'agent_rpc.py', 'agent_checkpoints.py', 'agent.py'];

export function loadAgentSource(): string {
  agentSource ??= AGENT_FILES.map((file) => readFileSync(assetPath(`sandbox/agent/${file}`), 'utf8')).join('\n\n');
  return agentSource;
}

export function buildBootLine(options: Partial<Omit<BootPayload, 'agent'>> = {}): string {
  const payload: BootPayload = {
    agent: loadAgentSource(),
    idleTimeoutSec: options.idleTimeoutSec ?? 600,
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    modules: options.modules ?? {},
    ...(options.outDir ? { outDir: options.outDir } : {}),
    ...(options.preload ? { preload: options.preload } : {}),
    ...(options.mplFontCache ? { mplFontCache: options.mplFontCache } : {}),
  };
  return `${JSON.stringify(payload)}\n`;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The directory in the sandbox whose files come back as artifacts (`out/<path>`). */
export const OUT_DIR = '/workspace/out';

/** The Python modules every agent gets at boot: the calling line of host calls, the sandbox-side MCP runtime, figures, displays and out/ files. */
export function agentBootModules(): Record<string, string> {
  runtimeModules ??= Object.fromEntries(
    Object.entries(BOOT_MODULE_FILES).map(([name, file]) => [name, readFileSync(assetPath(`sandbox/agent/${file}`), 'utf8')]),
  );
  return runtimeModules;
}

/** Module name → file under agent/, in install order: a module may import the ones before it. */
const BOOT_MODULE_FILES: Record<string, string> = {
  _sandbar_code_line: 'code_line.py', // which user line made each host call (the agent asks it)
  _sandbar_mcp_aliases: 'mcp_aliases.py',
  _sandbar_mcp: 'mcp_runtime.py',
  _sandbar_out_files: 'out_files.py', // /workspace/out's files (artifacts.py sends them when the code is done)
  _sandbar_artifacts: 'artifacts.py',
  _sandbar_egress: 'egress.py', // the loopback stand-in for the host's egress proxy (issue 26)
  _sandbar_warm: 'warm_imports.py', // after artifacts: preloaded Matplotlib and PIL find our hooks in place
};
let runtimeModules: Record<string, string> | undefined;
