// Runs the real agent with the mcp_runtime boot module on the host (`python3 -c BOOTSTRAP_SOURCE`) and plays
// the host: it answers the three MCP RPCs (list_servers, list_tools, call_tool) from the test's context.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agentBootModules, BOOTSTRAP_SOURCE, buildBootLine } from '../../../electron/sandbox/agent/bootstrap.js';

type Frame = { type: string } & Record<string, unknown>;
type Payload = Record<string, unknown>;

interface Tool {
  name: string;
  description?: string;
  inputSchema?: object;
  title?: string;
}
interface Server {
  name: string;
  description?: string;
  cwd?: string | null;
  tools: Tool[];
}
interface McpContext {
  loaded: Server[];
  discovered: { name: string; description?: string }[];
}

// The same boot modules, in the same order, as every container gets.
const MODULES = agentBootModules();
const WAIT_MS = 15_000;
const SUITE = { timeout: 40_000 };

const ECHO_SCHEMA = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
const EVERYTHING: Server = {
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
const DEMO: Server = {
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
const CONTEXT: { mcp: McpContext } = {
  mcp: {
    loaded: [EVERYTHING, DEMO],
    discovered: [
      { name: 'everything', description: 'Reference test server' },
      { name: 'demo-server', description: 'Demo files' },
      { name: 'github' },
    ],
  },
};

interface RunResult {
  stdout: string;
  stderr: string;
  code: unknown;
  /** Payloads of the rpc_request frames, in order. */
  requests: Payload[];
}

/** The host's answer to one MCP RPC, as the real host would give it for `mcp.loaded`. */
function answer(payload: Payload, mcp: McpContext | undefined): { payload: Payload } | { error: string; kind?: string } {
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
async function run(code: string, context: Record<string, unknown> = CONTEXT, modules = MODULES): Promise<RunResult> {
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
async function runJson(
  code: string,
  context?: Record<string, unknown>,
  prelude = 'import json\n',
): Promise<{ lines: unknown[]; r: RunResult }> {
  const r = await run(prelude + code, context);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { lines: r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown), r };
}

const callRequest = (server: string, tool: string, args: Payload): Payload => ({
  type: 'call_tool',
  server,
  tool,
  arguments: args,
});

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

describe.concurrent('metadata helpers', SUITE, () => {
  it('lists discovered and loaded servers and their metadata', async () => {
    const { lines, r } = await runJson(
      'print(json.dumps([runtime.discovered_servers(), runtime.discovered_servers(detailed=True)]))\n' +
        'print(json.dumps([runtime.list_servers_sync(), await runtime.list_servers()]))\n' +
        'print(json.dumps(runtime.describe_server("demo-server")))\n' +
        'print(json.dumps([m["cwd"] for m in runtime.list_loaded_server_metadata()]))\n' +
        'print(json.dumps(runtime.list_tools_sync("everything")[1]))\n' +
        'runtime.describe_server("everything")["tools"].clear()  # copies: the cache stays intact\n' +
        'print(json.dumps(len(runtime.list_tools_sync("everything"))))\n' +
        'for call in (lambda: runtime.describe_server("nope"), lambda: runtime.list_tools_sync(),\n' +
        '             lambda: runtime.list_tools_sync("nope")):\n' +
        '    try:\n        call()\n    except runtime.MCPError as e:\n        print(json.dumps(str(e)))',
    );
    expect(lines).toEqual([
      [
        ['everything', 'demo-server', 'github'],
        [
          { name: 'everything', description: 'Reference test server' },
          { name: 'demo-server', description: 'Demo files' },
          { name: 'github', description: '' },
        ],
      ],
      [
        ['everything', 'demo-server'],
        ['demo-server', 'everything'], // the host's answer: sorted
      ],
      {
        name: 'demo-server',
        alias: 'demo_server',
        description: 'Demo files',
        tools: [
          { name: 'get-file', alias: 'get_file', description: 'Read a file from disk', input_schema: null },
          { name: 'Get File', alias: 'get_file_2', description: 'Read a file, again', input_schema: null },
          { name: 'class', alias: 'class_', description: '', input_schema: null },
          { name: '9lives', alias: '_9lives', description: '', input_schema: null },
        ],
        cwd: null,
      },
      ['/srv/everything', null],
      { name: 'echo', alias: 'echo', description: 'Echoes back the input', input_schema: ECHO_SCHEMA },
      6,
      "Server 'nope' is not loaded",
      'list_tools_sync(server) requires a server name',
      "Server 'nope' is not loaded",
    ]);
    expect(r.requests).toEqual([{ type: 'list_servers' }]);
  });

  it('answers query_tool_docs sync and async alike, at both detail levels, without RPC', async () => {
    const { lines, r } = await runJson(
      'print(json.dumps(runtime.query_tool_docs_sync("demo-server")))\n' +
        'print(json.dumps(await runtime.query_tool_docs("everything", "ECHO", detail="FULL")))\n' +
        'print(json.dumps(runtime.query_tool_docs_sync("everything", "echo", detail="bogus")))\n' +
        'print(json.dumps(await runtime.query_tool_docs("demo-server", "get_file_2", detail="full")))\n' +
        'print(json.dumps(await runtime.query_tool_docs("demo-server") == runtime.query_tool_docs_sync("demo-server")))\n' +
        'for args in (("everything", "nope"), ("ghost",), ("everything", 3)):\n' +
        '    for f in (runtime.query_tool_docs_sync, runtime.query_tool_docs):\n' +
        '        try:\n            r = f(*args)\n            if f is runtime.query_tool_docs:\n                await r\n' +
        '        except runtime.MCPError as e:\n            print(json.dumps(str(e)))',
    );
    const demo = (tool: string, toolAlias: string, description?: string): Payload => ({
      server: 'demo-server',
      serverAlias: 'demo_server',
      tool,
      toolAlias,
      ...(description ? { description } : {}),
    });
    const echo = { server: 'everything', serverAlias: 'everything', tool: 'echo', toolAlias: 'echo', description: 'Echoes back the input' };
    expect(lines).toEqual([
      [demo('get-file', 'get_file', 'Read a file from disk'), demo('Get File', 'get_file_2', 'Read a file, again'), demo('class', 'class_'), demo('9lives', '_9lives')],
      [{ ...echo, inputSchema: ECHO_SCHEMA }],
      [echo],
      [demo('Get File', 'get_file_2', 'Read a file, again')], // full, but no schema: no inputSchema key
      true,
      "Tool 'nope' not found for server everything",
      "Tool 'nope' not found for server everything",
      "Server 'ghost' is not loaded",
      "Server 'ghost' is not loaded",
      "'tool' must be a string when provided",
      "'tool' must be a string when provided",
    ]);
    expect(r.requests).toEqual([]);
  });

  it('says it is the PYTHON SANDBOX MANUAL and describes Sandbar truthfully', async () => {
    const r = await run('print(runtime.capability_summary())');
    expect(r.stdout.split('\n')[0]).toContain('PYTHON SANDBOX MANUAL');
    for (const point of ['1. ', '2. ', '3. ', '4. ', '5. ']) expect(r.stdout).toContain(`\n${point}`);
    expect(r.stdout).toContain('servers=[');
    expect(r.stdout).toContain('everything (mcp_everything), demo-server (mcp_demo_server)');
    expect(r.stdout).toContain('MCPError');
    expect(r.stdout).not.toContain('save_tool');
    expect(r.stdout).not.toMatch(/persistent Python/i);
  });
});

describe.concurrent('search_tool_docs', SUITE, () => {
  const bulk: Server = {
    name: 'bulk',
    tools: Array.from({ length: 25 }, (_, i) => ({ name: `t${i}`, description: 'bulk helper' })),
  };
  const withBulk = { mcp: { loaded: [EVERYTHING, DEMO, bulk], discovered: [] } };

  it('ranks a name match above a description-only match, in sync and async alike', async () => {
    const { lines, r } = await runJson(
      'print(json.dumps([d["tool"] for d in runtime.search_tool_docs_sync("echo")]))\n' +
        'print(json.dumps([d["tool"] for d in await runtime.search_tool_docs("echo")]))\n' +
        'print(json.dumps([d["tool"] for d in runtime.search_tool_docs_sync("file")]))\n' +
        'print(json.dumps(runtime.search_tool_docs_sync("ECHO back", detail="full")))',
    );
    expect(lines).toEqual([
      ['echo', 'printEnv'],
      ['echo', 'printEnv'],
      ['get-file', 'Get File'],
      [{ server: 'everything', serverAlias: 'everything', tool: 'echo', toolAlias: 'echo', description: 'Echoes back the input', inputSchema: ECHO_SCHEMA }],
    ]);
    expect(r.requests).toEqual([]);
  });

  it('requires every word to match, counting the server name', async () => {
    const { lines } = await runJson(
      'for q in ("demo file", "read again", "file nothingmatches", "everything numbers", "  DEMO  "):\n' +
        '    print(json.dumps([d["toolAlias"] for d in runtime.search_tool_docs_sync(q, limit=20)]))',
    );
    expect(lines).toEqual([
      ['get_file', 'get_file_2'],
      ['get_file_2'],
      [],
      ['add'],
      ['get_file', 'get_file_2', 'class_', '_9lives'],
    ]);
  });

  it('validates and clamps limit', async () => {
    const { lines } = await runJson(
      'for limit in (None, 0, -3, 7, 50):\n' +
        '    print(json.dumps(len(runtime.search_tool_docs_sync("bulk", limit=limit))))\n' +
        'print(json.dumps(len(runtime.search_tool_docs_sync("bulk"))))\n' +
        'for limit in (True, "3", 2.0):\n' +
        '    for f in (runtime.search_tool_docs_sync, runtime.search_tool_docs):\n' +
        '        try:\n            r = f("bulk", limit=limit)\n            if f is runtime.search_tool_docs:\n                await r\n' +
        '            print(json.dumps("accepted"))\n' +
        '        except runtime.MCPError as e:\n            print(json.dumps(str(e)))',
      withBulk,
    );
    expect(lines).toEqual([5, 1, 1, 7, 20, 5, ...Array<string>(6).fill("'limit' must be an integer")]);
  });

  it('rejects a blank query in sync and async alike', async () => {
    const { lines } = await runJson(
      'for q in ("", "   ", None):\n' +
        '    for f in (runtime.search_tool_docs_sync, runtime.search_tool_docs):\n' +
        '        try:\n            r = f(q)\n            if f is runtime.search_tool_docs:\n                await r\n' +
        '            print(json.dumps("accepted"))\n' +
        '        except runtime.MCPError as e:\n            print(json.dumps(str(e)))',
    );
    expect(lines).toEqual(Array<string>(6).fill("Missing 'query' value"));
  });
});
