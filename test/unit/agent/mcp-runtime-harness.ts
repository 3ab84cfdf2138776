// The sandbox-side MCP runtime run in the real agent on the host: the servers it is given and the harness
// its suites share.
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { agentBootModules, BOOTSTRAP_SOURCE, buildBootLine } from '../../../electron/sandbox/agent/bootstrap.js';

export type Frame = { type: string } & Record<string, unknown>;
export type Payload = Record<string, unknown>;

export interface Tool {
  name: string;
  description?: string;
  inputSchema?: object;
  title?: string;
}
export interface Server {
  name: string;
  description?: string;
  cwd?: string | null;
  tools: Tool[];
}
export interface McpContext {
  loaded: Server[];
  discovered: { name: string; description?: string }[];
}

// The same boot modules, in the same order, as every container gets.
export const MODULES = agentBootModules();
export const WAIT_MS = 15_000;
export const SUITE = { timeout: 40_000 };

export const ECHO_SCHEMA = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
export const EVERYTHING: Server = {
  name: 'everything',
  description: '  Reference test server  ',
  cwd: '/srv/everything',
  tools: [
    // Listed before `echo` and mentions "echo" only in its description: ranking must put `echo` first.
    { name: 'printEnv', description: 'Prints the environment; handy to echo settings', inputSchema: { type: 'object' } },
    { name: 'echo', description: 'Echoes back the input', inputSchema: ECHO_SCHEMA, title: 'Echo' },
    { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: {}, b: {} } } },
    { name: 'explode', description: 'The host fails this call' },
    { name: 'oops', description: 'Returns a tool error' },
    { name: 'list_tools', description: 'A tool the proxy method shadows' },
  ],
};
export const DEMO: Server = {
  name: 'demo-server',
  description: 'Demo files',
  cwd: null,
  tools: [
    { name: 'get-file', description: 'Read a file from disk' },
    { name: 'Get File', description: 'Read a file, again' },
    { name: 'class' },
    { name: '9lives', description: '' },
  ],
};
export const CONTEXT: { mcp: McpContext } = {
  mcp: {
    loaded: [EVERYTHING, DEMO],
    discovered: [
      { name: 'everything', description: 'Reference test server' },
      { name: 'demo-server', description: 'Demo files' },
      { name: 'github' },
    ],
  },
};

export interface RunResult {
  stdout: string;
  stderr: string;
  code: unknown;
  /** Payloads of the rpc_request frames, in order. */
  requests: Payload[];
}

/** The host's answer to one MCP RPC, as the real host would give it for `mcp.loaded`. */
export function answer(payload: Payload, mcp: McpContext | undefined): { payload: Payload } | { error: string; kind?: string } {
  const loaded = mcp?.loaded ?? [];
  const server = loaded.find((s) => s.name === payload.server);
  switch (payload.type) {
    case 'list_servers':
      return { payload: { servers: loaded.map((s) => s.name).sort() } };
    case 'list_tools':
      if (server?.name === 'demo-server') return { error: 'demo-server exited with code 1' }; // a crashed server
      return server ? { payload: { tools: server.tools } } : { error: `Server ${String(payload.server)} is not loaded` };
    case 'call_tool': {
      if (!server) return { error: `Server ${String(payload.server)} is not loaded` };
      const args = payload.arguments as Payload;
      if (payload.tool === 'explode') return { error: 'Connection closed' };
      if (payload.tool === 'forbidden') return { error: 'everything/forbidden was denied (panel)', kind: 'denied' };
      if (payload.tool === 'oops') {
        return { payload: { result: { content: [{ type: 'text', text: 'bad input' }], isError: true } } };
      }
      const text = `Echo: ${String(args.message)}`;
      return { payload: { result: { content: [{ type: 'text', text }], isError: false } } };
    }
    default:
      return { error: `Unknown RPC type: ${String(payload.type)}` };
  }
}

/** Boot the agent with the MCP module, run `code` with `context`, play the host, and collect the outcome. */
export async function run(code: string, context: Record<string, unknown> = CONTEXT, modules = MODULES): Promise<RunResult> {
  const child = spawn('python3', ['-c', BOOTSTRAP_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
  const frames: Frame[] = [];
  const requests: Payload[] = [];
  let pending = '';
  let rawStderr = '';
  const send = (frame: object): void => void child.stdin.write(`${JSON.stringify(frame)}\n`);
  child.stdin.on('error', () => {});
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (rawStderr += chunk));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const frame = JSON.parse(pending.slice(0, newline)) as Frame;
      pending = pending.slice(newline + 1);
      frames.push(frame);
      if (frame.type === 'ready') send({ type: 'start', code, context });
      if (frame.type === 'rpc_request') {
        const payload = frame.payload as Payload;
        requests.push(payload);
        const reply = answer(payload, context.mcp as McpContext | undefined);
        send({ type: 'rpc_response', id: frame.id, success: 'payload' in reply, ...reply });
      }
    }
  });
  child.stdin.write(buildBootLine({ modules }));
  const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS * 2);
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const stream = (type: string): string => frames.filter((f) => f.type === type).map((f) => f.data as string).join('');
  const exit = frames.find((f) => f.type === 'exit');
  if (!exit) throw new Error(`no exit frame; frames=${JSON.stringify(frames).slice(0, 800)} stderr=${rawStderr}`);
  return { stdout: stream('stdout'), stderr: stream('stderr'), code: exit.code, requests };
}

/** Run code that prints one JSON value per line; returns the parsed lines (and fails loudly on stderr). */
export async function runJson(
  code: string,
  context?: Record<string, unknown>,
  prelude = 'import json\n',
): Promise<{ lines: unknown[]; r: RunResult }> {
  const r = await run(prelude + code, context);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { lines: r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown), r };
}

export const callRequest = (server: string, tool: string, args: Payload): Payload => ({
  type: 'call_tool',
  server,
  tool,
  arguments: args,
});
