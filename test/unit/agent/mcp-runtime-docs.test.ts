// The sandbox-side MCP runtime in the real agent, continued: metadata helpers and search_tool_docs.
import { describe, expect, it } from 'vitest';
import { type Payload, type Server, SUITE, ECHO_SCHEMA, EVERYTHING, DEMO, run, runJson } from './mcp-runtime-harness.js';

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
