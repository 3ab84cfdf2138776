// The sandbox-side MCP runtime in the real agent: calling tools, names and modules.
import { describe, expect, it } from 'vitest';
import { type Server, SUITE, CONTEXT, run, runJson, callRequest } from './mcp-runtime-harness.js';

describe.concurrent('calling tools', SUITE, () => {
  it('raises ToolCallDenied, an MCPError, for a denied call, and plain MCPError for other failures', async () => {
    const { lines } = await runJson(
      'from mcp.runtime import MCPError, ToolCallDenied\n' +
        'out = []\n' +
        'for tool in ("forbidden", "explode"):\n' +
        '    try:\n' +
        '        await runtime.call_tool("everything", tool, {})\n' +
        '    except MCPError as e:\n' +
        '        out.append([type(e).__name__, isinstance(e, ToolCallDenied), str(e)])\n' +
        'print(json.dumps(out))',
    );
    expect(lines).toEqual([
      [
        ['ToolCallDenied', true, 'everything/forbidden was denied (panel)'],
        ['MCPError', false, 'Connection closed'],
      ],
    ]);
  });

  it('returns the host result through the proxy, mcp_servers, mcp.servers.<alias> and runtime.call_tool', async () => {
    const { lines, r } = await runJson(
      'from mcp.servers.everything import *\nimport mcp.servers.everything\n' +
        'results = [await mcp_everything.echo(message="a"), await mcp_servers["everything"].echo(message="b"),\n' +
        '    await echo(message="c"), await runtime.call_tool("everything", "echo", {"message": "d"}),\n' +
        '    await mcp.servers.everything.echo(message="e")]\n' +
        'print(json.dumps([x["content"][0]["text"] for x in results]))\n' +
        'print(json.dumps([x["isError"] for x in results]))\n' +
        'print(json.dumps([mcp_servers["everything"] is mcp_everything, echo is mcp_everything.echo]))',
    );
    expect(lines).toEqual([
      ['Echo: a', 'Echo: b', 'Echo: c', 'Echo: d', 'Echo: e'],
      [false, false, false, false, false],
      [true, true],
    ]);
    expect(r.requests).toEqual(['a', 'b', 'c', 'd', 'e'].map((m) => callRequest('everything', 'echo', { message: m })));
  });

  it('sends the original tool name for aliases and exact original-name attributes', async () => {
    const { lines, r } = await runJson(
      'await mcp_demo_server.get_file(path="x")\nawait getattr(mcp_demo_server, "get-file")(path="y")\n' +
        'await mcp_demo_server.get_file_2()\nawait mcp_demo_server.class_()\nawait mcp_demo_server._9lives()\n' +
        'await runtime.call_tool("demo-server", "get_file_2")\nawait runtime.call_tool("demo_server", "not-cached", None)\n' +
        'print(json.dumps(mcp_demo_server.get_file is getattr(mcp_demo_server, "get-file")))',
    );
    expect(lines).toEqual([true]);
    expect(r.requests).toEqual([
      callRequest('demo-server', 'get-file', { path: 'x' }),
      callRequest('demo-server', 'get-file', { path: 'y' }),
      callRequest('demo-server', 'Get File', {}),
      callRequest('demo-server', 'class', {}),
      callRequest('demo-server', '9lives', {}),
      callRequest('demo-server', 'Get File', {}), // a tool alias is resolved
      callRequest('demo-server', 'not-cached', {}), // server alias resolved; unknown tools pass through
    ]);
  });

  it('rejects positional arguments with TypeError before anything is sent', async () => {
    const r = await run(
      'from mcp.servers.everything import echo\n' +
        'for call in (lambda: mcp_everything.echo("hi"), lambda: echo("hi", message="x")):\n' +
        '    try:\n        call()\n    except TypeError as e:\n        print("TypeError", e)\n' +
        'import inspect\nprint(inspect.iscoroutinefunction(echo))',
    );
    expect(r.stdout).toBe(
      'TypeError echo() takes 0 positional arguments but 1 was given\n' +
        'TypeError echo() takes 0 positional arguments but 1 was given\nTrue\n',
    );
    expect(r.requests).toEqual([]);
  });

  it('returns an isError result as data', async () => {
    const { lines } = await runJson('r = await mcp_everything.oops(x=1)\nprint(json.dumps(r))');
    expect(lines).toEqual([{ content: [{ type: 'text', text: 'bad input' }], isError: true }]);
  });

  it('turns RPC failures into MCPError with the host message, with a traceback that ends at user code', async () => {
    const r = await run(
      'for call in (lambda: mcp_everything.explode(), lambda: runtime.call_tool("everything", "explode"),\n' +
        '             lambda: runtime.list_tools("demo-server")):\n' +
        '    try:\n        await call()\n    except runtime.MCPError as e:\n' +
        '        print(type(e).__name__, isinstance(e, RuntimeError), e, e.__cause__, e.__suppress_context__)\n' +
        'await mcp_everything.explode()',
    );
    expect(r.stdout).toBe(
      'MCPError True Connection closed None True\nMCPError True Connection closed None True\n' +
        'MCPError True demo-server exited with code 1 None True\n',
    );
    expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "<sandbox>", line 7, in <module>\n/);
    expect(r.stderr).toContain('mcp.runtime.MCPError: Connection closed\n');
    expect(r.stderr).not.toContain('_sandbar_mcp');
    expect(r.stderr).not.toContain('RpcError');
    expect(r.code).toBe(1);
  });

  it('checks server, tool and arguments locally with MCPError', async () => {
    const { lines, r } = await runJson(
      'for args in (("ghost", "echo"), ("everything", ""), ("everything", None), ("everything", "echo", [1])):\n' +
        '    try:\n        await runtime.call_tool(*args)\n    except runtime.MCPError as e:\n        print(json.dumps(str(e)))',
    );
    expect(lines).toEqual(["Server 'ghost' is not loaded", 'Missing tool name', 'Missing tool name', 'Arguments must be an object']);
    expect(r.requests).toEqual([]);
  });

  it('raises AttributeError naming real tools for an unknown attribute; list_tools() is the live method', async () => {
    const r = await run(
      'try:\n    mcp_demo_server.get_fil\nexcept AttributeError as e:\n    print(e)\n' +
        'print(hasattr(mcp_everything, "__deepcopy__"), sorted(dir(mcp_demo_server)))\n' +
        'tools = await mcp_everything.list_tools()\nprint(tools[1]["title"], len(tools))',
    );
    expect(r.stdout).toBe(
      "MCP server 'demo-server' has no tool 'get_fil'. Did you mean 'get_file'? Tools: _9lives, class_, get_file, " +
        "get_file_2 (all of them: runtime.list_tools_sync('demo-server'))\n" +
        "False ['_9lives', 'class_', 'get_file', 'get_file_2', 'list_tools']\nEcho 6\n",
    );
    expect(r.requests).toEqual([{ type: 'list_tools', server: 'everything' }]);
  });
});

describe.concurrent('names and modules', SUITE, () => {
  it('pre-binds exactly mcp, runtime, mcp_servers, LOADED_MCP_SERVERS and mcp_<alias>', async () => {
    const { lines } = await runJson(
      "names = sorted(k for k in globals() if not k.startswith('__'))\n" +
        'import json, mcp.runtime, sys\nprint(json.dumps(names))\n' +
        'print(json.dumps([LOADED_MCP_SERVERS, type(LOADED_MCP_SERVERS).__name__, list(mcp_servers),\n' +
        '    runtime is mcp.runtime is sys.modules["mcp.runtime"], mcp.__path__, mcp.servers.__path__,\n' +
        '    mcp.servers.__all__, hasattr(runtime, "save_tool"), sorted(runtime.__all__)]))',
      CONTEXT,
      '',
    );
    expect(lines).toEqual([
      ['LOADED_MCP_SERVERS', 'mcp', 'mcp_demo_server', 'mcp_everything', 'mcp_servers', 'runtime'],
      [
        ['everything', 'demo-server'],
        'tuple',
        ['everything', 'demo-server'],
        true,
        [],
        [],
        ['everything', 'demo_server'],
        false,
        [
          'MCPError', 'ToolCallDenied', 'call_tool', 'capability_summary', 'describe_server', 'discovered_servers', 'end_session',
          'list_loaded_server_metadata', 'list_servers', 'list_servers_sync', 'list_tools', 'list_tools_sync',
          'query_tool_docs', 'query_tool_docs_sync', 'search_tool_docs', 'search_tool_docs_sync',
        ],
      ],
    ]);
  });

  it.each([
    ['no mcp key', {}],
    ['a malformed mcp value', { mcp: 'garbage' }],
    ['empty lists', { mcp: { loaded: [], discovered: [] } }],
  ])('still binds the names with %s', async (_label, context) => {
    const { lines } = await runJson(
      "names = sorted(k for k in globals() if not k.startswith('__'))\n" +
        'import json\nprint(json.dumps(names))\n' +
        'print(json.dumps([mcp_servers == {}, LOADED_MCP_SERVERS == (), runtime.discovered_servers() == (),\n' +
        '    runtime.list_servers_sync() == (), mcp.servers.__all__ == [], "PYTHON SANDBOX MANUAL" in runtime.capability_summary()]))',
      context,
      '',
    );
    expect(lines).toEqual([['LOADED_MCP_SERVERS', 'mcp', 'mcp_servers', 'runtime'], [true, true, true, true, true, true]]);
  });

  it('reports a runtime that cannot set up instead of running the code', async () => {
    const broken = { _sandbar_mcp: 'def prebound_names(context):\n    raise ValueError("bad context")\n' };
    const r = await run('print("ran")', CONTEXT, broken);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^sandbar: could not set up the sandbox API\nTraceback/);
    expect(r.stderr).toContain('ValueError: bad context');
    expect(r.code).toBe(1);
  });

  it('builds mcp.servers.<alias> modules with TOOLS, TOOL_MAP, __all__ and documented functions', async () => {
    const { lines } = await runJson(
      'import mcp.servers.demo_server as d\nimport inspect\n' +
        'print(json.dumps([d.__name__, d.__doc__, d.__all__, list(d.TOOL_MAP), d.TOOL_MAP["get_file_2"]["name"],\n' +
        '    [t["alias"] for t in d.TOOLS], d.get_file.__name__, d.get_file.__doc__, d._9lives.__doc__,\n' +
        '    d.class_.__doc__, all(inspect.iscoroutinefunction(getattr(d, a)) for a in d.__all__)]))\n' +
        'ns = {}\nexec("from mcp.servers.demo_server import *", ns)\n' +
        'print(json.dumps(sorted(k for k in ns if k != "__builtins__")))\n' +
        'try:\n    import mcp.servers.nope\nexcept ImportError as e:\n    print(json.dumps(type(e).__name__))',
    );
    expect(lines).toEqual([
      [
        'mcp.servers.demo_server',
        "MCP server 'demo-server' wrappers",
        ['get_file', 'get_file_2', 'class_', '_9lives'],
        ['get_file', 'get_file_2', 'class_', '_9lives'],
        'Get File',
        ['get_file', 'get_file_2', 'class_', '_9lives'],
        'get_file',
        'Read a file from disk',
        'MCP tool 9lives from demo-server',
        'MCP tool class from demo-server',
        true,
      ],
      ['_9lives', 'class_', 'get_file', 'get_file_2'],
      'ModuleNotFoundError',
    ]);
  });

  it('assigns server and tool aliases by the alias rules, in load order', async () => {
    const tools = ['get-file', 'Get File', 'get_file_2', 'class', '9lives', '', '  Spaced Out  '].map((name) => ({ name }));
    const loaded = ['a-b', 'a.b', 'import', 'Other.Srv', '9lives', '', 'servers'].map((name): Server => ({ name, tools: [] }));
    loaded[3] = { name: 'Other.Srv', tools };
    const { lines } = await runJson(
      'print(json.dumps([[s["alias"], [t["alias"] for t in s["tools"]]] for s in runtime.list_loaded_server_metadata()]))\n' +
        "print(json.dumps(sorted(k for k in globals() if k.startswith('mcp_'))))\n" +
        'import mcp.servers.import_, mcp.servers.a_b_2\n' +
        'print(json.dumps([mcp_a_b_2 is mcp_servers["a.b"], mcp_a_b is mcp_servers["a-b"], mcp.servers.a_b_2.__doc__,\n' +
        '    type(mcp_servers).__name__, mcp_servers_2 is mcp_servers["servers"]]))',
      { mcp: { loaded, discovered: [] } },
    );
    expect(lines).toEqual([
      [
        ['a_b', []],
        ['a_b_2', []],
        ['import_', []],
        ['other_srv', ['get_file', 'get_file_2', 'get_file_2_2', 'class_', '_9lives', 'tool', 'spaced_out']],
        ['_9lives', []],
        ['server', []],
        ['servers_2', []], // `mcp_servers` is the proxy dict, so this server cannot be mcp_servers
      ],
      ['mcp__9lives', 'mcp_a_b', 'mcp_a_b_2', 'mcp_import_', 'mcp_other_srv', 'mcp_server', 'mcp_servers', 'mcp_servers_2'],
      [true, true, "MCP server 'a.b' wrappers", 'dict', true],
    ]);
  });
});
