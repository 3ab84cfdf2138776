// Code mode end to end: sandboxed Python calls real MCP servers from npm through the host proxy.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { sandbox, startEngine } from '../helpers.js';
import { EVERYTHING, FILESYSTEM, STUB, proxyFixture, stdioServer, text, type ProxyFixture } from './proxy-helpers.js';


describe.skipIf(!sandbox.available)('proxy to the user\'s MCP servers', () => {
  let engine: Engine;
  let fx: ProxyFixture;
  const shared = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-fs-')));
  const workdir = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-cwd-')));
  writeFileSync(path.join(shared, 'note.txt'), 'hello from the host');

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2 });
    fx = await proxyFixture(
      engine,
      [
        stdioServer('everything', EVERYTHING, ['stdio'], { description: 'Reference test server' }),
        stdioServer('filesystem', FILESYSTEM, [shared], { description: 'Files in one shared folder' }),
        stdioServer('stub', process.execPath, [STUB], { env: { STUB_SECRET: 'from-config' }, cwd: workdir }),
        stdioServer('quitter', process.execPath, [STUB], { env: { STUB_EXIT_AT_ONCE: '7' } }),
        stdioServer('missing', '/nonexistent/bin/mcp-server'),
        stdioServer('hidden', EVERYTHING, ['stdio']),
        stdioServer('Other.Srv', process.execPath, [STUB]),
      ],
      { hidden: 'deny' },
    );
  });
  afterAll(async () => {
    await fx?.close();
    await engine?.dispose();
  });

  it('calls echo through the proxy, mcp_servers, mcp.servers and runtime.call_tool, on one warm host process', async () => {
    const code = `
r1 = await mcp_everything.echo(message="hi")
r2 = await mcp_servers["everything"].echo(message="hi")
from mcp.servers.everything import echo
r3 = await echo(message="hi")
r4 = await runtime.call_tool("everything", "echo", {"message": "hi"})
print([r["content"][0]["text"] for r in (r1, r2, r3, r4)])
`;
    const first = await fx.run(code, ['everything']);
    expect(first.isError, text(first)).toBe(false);
    expect(text(first)).toBe("['Echo: hi', 'Echo: hi', 'Echo: hi', 'Echo: hi']");
    const second = await fx.run('print((await mcp_everything.echo(message="again"))["content"][0]["text"])', ['everything']);
    expect(text(second)).toBe('Echo: again');
    const starts = fx.events.filter((e) => e.type === 'serverStateChanged' && e.server === 'everything' && e.state === 'starting');
    expect(starts).toHaveLength(1);
    const calls = fx.events.filter((e) => e.type === 'toolCall' && e.call.server === 'everything');
    expect(calls.length).toBe(5);
  });

  it('reads a host file through server-filesystem, while plain Python cannot see it', async () => {
    const r = await fx.run(`
import os
res = await mcp_filesystem.read_text_file(path=${JSON.stringify(path.join(shared, 'note.txt'))})
print(res["content"][0]["text"])
print(os.path.exists(${JSON.stringify(path.join(shared, 'note.txt'))}))
`, ['filesystem']);
    expect(r.isError, text(r)).toBe(false);
    expect(text(r)).toBe('hello from the host\nFalse');
  });

  it('lists discovered servers that are not loaded, with descriptions, and hides denied ones', async () => {
    const r = await fx.run(`
print(runtime.discovered_servers())
print([d["description"] for d in runtime.discovered_servers(detailed=True)][:2])
print(LOADED_MCP_SERVERS)
`);
    expect(text(r)).toBe(
      "('everything', 'filesystem', 'stub', 'quitter', 'missing', 'Other.Srv')\n['Reference test server', 'Files in one shared folder']\n()",
    );
    const denied = await fx.run('print(1)', ['hidden']);
    expect(denied.isError).toBe(true);
    expect(text(denied)).toBe("status: error\nSandbox error: MCP server 'hidden' is denied in Sandbar; allow it in the panel's Servers view to use it");
  });

  it('refuses forged host calls to servers the run did not load', async () => {
    const r = await fx.run(`
import _sandbar
for server in ("filesystem", "hidden"):
    try:
        await _sandbar.rpc({"type": "call_tool", "server": server, "tool": "list_allowed_directories", "arguments": {}})
        print("reached", server)
    except _sandbar.RpcError as e:
        print(e)
`, ['everything']);
    expect(text(r)).toBe("Server 'filesystem' is not available\nServer 'hidden' is not available");
  });

  it('serves three 1-second calls from one run concurrently', async () => {
    const r = await fx.run(`
import asyncio, time
start = time.monotonic()
res = await asyncio.gather(*[mcp_stub.sleep(seconds=1) for _ in range(3)])
print(round(time.monotonic() - start, 1) < 2.5, [x["content"][0]["text"] for x in res])
`, ['stub']);
    expect(text(r)).toBe("True ['slept 1', 'slept 1', 'slept 1']");
  });

  it('returns a 1 MiB result whole, and the next call in the same run works', async () => {
    const r = await fx.run(`
res = await mcp_stub.big(bytes=1048576)
t = res["content"][0]["text"]
print(len(t), set(t))
print((await mcp_stub.pid())["content"][0]["text"].isdigit())
`, ['stub']);
    expect(text(r)).toBe("1048576 {'x'}\nTrue");
  });

  it('honours the config\'s env and cwd, and passes no host secrets', async () => {
    process.env.SANDBAR_HOST_SECRET = 'do-not-leak';
    const r = await fx.run(`
print((await mcp_stub.env(name="STUB_SECRET"))["content"][0]["text"])
print((await mcp_stub.env(name="SANDBAR_HOST_SECRET"))["content"][0]["text"])
print((await mcp_stub.cwd())["content"][0]["text"])
print(runtime.describe_server("stub")["cwd"])
`, ['stub']);
    delete process.env.SANDBAR_HOST_SECRET;
    // The stub was started before the secret was set, so restart-independent: the env is the config's over a minimal set.
    expect(text(r).split('\n')).toEqual(['from-config', '<unset>', workdir, workdir]);
  });

  it('returns a tool-level error as data, not an exception', async () => {
    const r = await fx.run('res = await mcp_stub.fail()\nprint(res["isError"], res["content"][0]["text"])', ['stub']);
    expect(text(r)).toBe('True it failed');
  });

  it('names the failure of a server that exits at once or is missing, and the next call works', async () => {
    const quit = await fx.run('print(1)', ['quitter']);
    expect(quit.isError).toBe(true);
    expect(text(quit)).toMatch(/^status: error\nSandbox error: MCP server 'quitter' failed to start: exited with code 7: stub: refusing to start/);
    const missing = await fx.run('print(1)', ['missing']);
    expect(text(missing)).toMatch(/MCP server 'missing' failed to start: command '\/nonexistent\/bin\/mcp-server' was not found/);
    const ok = await fx.run('print((await mcp_everything.echo(message="after"))["content"][0]["text"])', ['everything']);
    expect(text(ok)).toBe('Echo: after');
  });

  it('survives a server crash mid-run with MCPError, and the next run gets a restarted server', async () => {
    const before = await fx.run('print((await mcp_stub.pid())["content"][0]["text"])', ['stub']);
    const crashed = await fx.run(`
try:
    await mcp_stub.crash()
    print("no error")
except runtime.MCPError as e:
    print("MCPError")
`, ['stub']);
    expect(text(crashed)).toBe('MCPError');
    expect(fx.events.some((e) => e.type === 'serverStateChanged' && e.server === 'stub' && e.state === 'crashed')).toBe(true);
    const after = await fx.run('print((await mcp_stub.pid())["content"][0]["text"])', ['stub']);
    expect(after.isError, text(after)).toBe(false);
    expect(text(after)).not.toBe(text(before));
  });

  it('refreshes the tool list on list_changed', async () => {
    await fx.run('await mcp_stub.add_tool()', ['stub']);
    await new Promise((r) => setTimeout(r, 300));
    const r = await fx.run('print((await mcp_stub.added())["content"][0]["text"])', ['stub']);
    expect(text(r), text(r)).toBe('added works');
  });

  it('gives servers Python-safe aliases', async () => {
    const r = await fx.run('print(sorted(k for k in globals() if k.startswith("mcp_")))\nprint(runtime.describe_server("Other.Srv")["alias"])', ['Other.Srv', 'stub']);
    expect(text(r)).toBe("['mcp_other_srv', 'mcp_servers', 'mcp_stub']\nother_srv");
  });

  it('searches and documents tools', async () => {
    const r = await fx.run(`
docs = runtime.search_tool_docs_sync("echo")
print(docs[0]["server"], docs[0]["tool"])
full = await runtime.query_tool_docs("everything", tool="echo", detail="full")
print("inputSchema" in full[0], "inputSchema" in runtime.query_tool_docs_sync("everything", tool="echo")[0])
`, ['everything']);
    expect(text(r)).toBe('everything echo\nTrue False');
  });
});
