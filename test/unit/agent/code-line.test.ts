// The agent names the user's line that made each host call (boot module code_line.py): the real agent on the
// host, its rpc_request frames read as the engine reads them.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasControlChars } from '../../../shared/control-chars.js';
import { agentBootModules, BOOTSTRAP_SOURCE, buildBootLine } from '../../../electron/sandbox/agent/bootstrap.js';

type Frame = { type: string } & Record<string, unknown>;

/** Runs `code` in a fresh agent with every boot module, answers each rpc with {ok: true}, returns the requests. */
function requestsOf(code: string, context: Record<string, unknown> = {}): Promise<{ requests: Frame[]; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', BOOTSTRAP_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
    const requests: Frame[] = [];
    let stdout = '';
    let stderr = '';
    let pending = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const frame = JSON.parse(pending.slice(0, nl)) as Frame;
        pending = pending.slice(nl + 1);
        if (frame.type === 'ready') child.stdin.write(`${JSON.stringify({ type: 'start', code, context })}\n`);
        if (frame.type === 'rpc_request') {
          requests.push(frame);
          child.stdin.write(`${JSON.stringify({ type: 'rpc_response', id: frame.id, success: true, payload: { ok: true } })}\n`);
        }
        if (frame.type === 'stdout') stdout += String(frame.data);
        if (frame.type === 'stderr') stderr += String(frame.data);
      }
    });
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ requests, stdout, stderr });
    });
    child.stdin.write(buildBootLine({ modules: agentBootModules() }));
  });
}

describe.concurrent('the calling line of host calls', { timeout: 40_000 }, () => {
  it('names the line of top-level code that awaited the call', async () => {
    const { requests, stderr } = await requestsOf(['import _sandbar', 'x = 1', 'r = await _sandbar.rpc({"n": 1})  # the call', 'print(r)'].join('\n'));
    expect(stderr).toBe('');
    expect(requests.map((r) => r.where)).toEqual([{ line: 3, text: 'r = await _sandbar.rpc({"n": 1}) # the call' }]);
  });

  it('names the innermost user line: inside the function that made the call', async () => {
    const code = ['import _sandbar', 'async def remove(name):', '    return await _sandbar.rpc({"name": name})', '', 'await remove("a")'].join('\n');
    const { requests } = await requestsOf(code);
    expect(requests[0]?.where).toEqual({ line: 3, text: 'return await _sandbar.rpc({"name": name})' });
  });

  const withServers = { mcp: { loaded: [{ name: 'fx', description: '', cwd: null, tools: [] }], discovered: [] } };

  it('names where a call run as its own task was made (asyncio.gather), one line per call', async () => {
    const code = ['import asyncio, _sandbar', 'await asyncio.gather(', '    _sandbar.rpc({"n": 1}),', '    _sandbar.rpc({"n": 2}),', ')'].join('\n');
    const { requests, stderr } = await requestsOf(code, withServers);
    expect(stderr).toBe('');
    const byN = Object.fromEntries(requests.map((r) => [(r.payload as { n: number }).n, r.where]));
    expect(byN).toEqual({ 1: { line: 3, text: '_sandbar.rpc({"n": 1}),' }, 2: { line: 4, text: '_sandbar.rpc({"n": 2}),' } });
  });

  it('tracks coroutine origins only in runs that loaded MCP servers (it costs every coroutine made)', async () => {
    const code = 'import sys\nprint(sys.get_coroutine_origin_tracking_depth())';
    expect((await requestsOf(code)).stdout).toBe('0\n');
    expect((await requestsOf(code, withServers)).stdout).toBe('8\n');
  });

  it('works from a thread running its own event loop', async () => {
    const code = ['import asyncio, threading, _sandbar', 't = threading.Thread(target=lambda: asyncio.run(_sandbar.rpc({"t": 1})))', 't.start(); t.join()'].join('\n');
    const { requests } = await requestsOf(code);
    expect(requests[0]?.where).toEqual({ line: 2, text: 't = threading.Thread(target=lambda: asyncio.run(_sandbar.rpc({"t": 1})))' });
  });

  it('sends one bounded line of plain text: control characters become spaces, long lines are cut', async () => {
    const code = `import _sandbar\nr = await _sandbar.rpc({"s": "\\x1b[31m"})  # \x1b[2J\x07${'z'.repeat(500)}`;
    const { requests } = await requestsOf(code);
    const where = requests[0]?.where as { line: number; text: string };
    expect(where.line).toBe(2);
    expect(where.text).toHaveLength(200);
    expect(where.text.startsWith('r = await _sandbar.rpc({"s": "\\x1b[31m"}) # [2J zzz')).toBe(true);
    expect(where.text.endsWith('z…')).toBe(true);
    expect(hasControlChars(where.text) || where.text.includes('\t')).toBe(false);
  });

  it('reads the line from the code it was given, not from linecache the code can rewrite', async () => {
    const code = ['import linecache, _sandbar', 'linecache.cache["<sandbox>"] = (1, None, ["forged\\n"] * 9, "<sandbox>")', 'await _sandbar.rpc({})'].join('\n');
    const { requests } = await requestsOf(code);
    expect(requests[0]?.where).toEqual({ line: 3, text: 'await _sandbar.rpc({})' });
  });
});
