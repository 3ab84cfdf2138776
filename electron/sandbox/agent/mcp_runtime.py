# Sandbar's sandbox-side MCP API, delivered to the agent as the boot module `_sandbar_mcp` (host side:
# modules = {'_sandbar_mcp_aliases': mcp_aliases.py, '_sandbar_mcp': <this file>}). At start the agent calls prebound_names(context), which installs the
# synthetic `mcp`, `mcp.runtime`, `mcp.servers` and `mcp.servers.<alias>` modules and returns the user's globals.
# The host answers only list_servers / list_tools / call_tool RPCs; aliases, docs and search are computed here
# from the metadata in the start context, so they cost no round trip. Python 3.8+, stdlib only.
import copy
import importlib.machinery
import sys
import types

import _sandbar  # registered by the agent before any boot module runs
from _sandbar_mcp_aliases import build_metadata, text as _text  # an earlier boot module

DEFAULT_SEARCH_LIMIT = 5
MAX_SEARCH_LIMIT = 20


class MCPError(RuntimeError):
    """Raised for every failed MCP helper call, including failures reported by the host."""


MCPError.__module__ = 'mcp.runtime'  # tracebacks say mcp.runtime.MCPError, the name user code catches


class ToolCallDenied(MCPError):
    """A tool call refused by policy, by the person asked, or because nobody answered in time."""


ToolCallDenied.__module__ = 'mcp.runtime'

# Per-run state, filled by prebound_names(). A container runs user code once, so module globals suffice.
_servers = []  # metadata dicts of loaded servers, in request order
_discovered = []  # {"name", "description"} of every configured and allowed server, in discovery order


# ---- lookups -------------------------------------------------------------------------------------------------

def _find_server(name):
    """The metadata of a loaded server by original name, or else by alias; MCPError when it is not loaded."""
    for key in ('name', 'alias'):
        for server in _servers:
            if server[key] == name:
                return server
    raise MCPError('Server %r is not loaded' % (name,))


def _find_tool(server, tool):
    """A cached tool entry: exact original name first, then case-insensitive name or alias. None if unknown."""
    for entry in server['tools']:
        if entry['name'] == tool:
            return entry
    folded = tool.lower()
    for entry in server['tools']:
        if entry['name'].lower() == folded or entry['alias'] == folded:
            return entry
    return None


def _doc(server, entry, detail):
    """A doc object as in REFERENCE 4.2; `detail` other than "full" (any case) means summary."""
    doc = {'server': server['name'], 'serverAlias': server['alias'], 'tool': entry['name'],
           'toolAlias': entry['alias']}
    if entry['description']:
        doc['description'] = entry['description']
    if isinstance(detail, str) and detail.lower() == 'full' and entry['input_schema'] is not None:
        doc['inputSchema'] = copy.deepcopy(entry['input_schema'])
    return doc


async def _rpc(payload, key):
    """One host RPC returning reply[key]. Host failures become MCPError (from None: the RpcError adds nothing)."""
    try:
        reply = await _sandbar.rpc(payload)
    except _sandbar.RpcError as exc:
        raise (ToolCallDenied if exc.kind == 'denied' else MCPError)(str(exc)) from None
    if not isinstance(reply, dict) or key not in reply:
        raise MCPError('The Sandbar host sent an unexpected reply to %s' % payload['type'])
    return reply[key]


# ---- mcp.runtime ---------------------------------------------------------------------------------------------

def discovered_servers(detailed=False):
    """Every MCP server configured and allowed on the host (loaded for this run or not), in discovery order."""
    if detailed:
        return tuple(dict(server) for server in _discovered)
    return tuple(server['name'] for server in _discovered)


def list_servers_sync():
    """Names of the servers loaded for this run, in request order."""
    return tuple(server['name'] for server in _servers)


async def list_servers():
    """Names of the servers loaded for this run, sorted, as the host reports them."""
    return tuple(await _rpc({'type': 'list_servers'}, 'servers'))


def list_tools_sync(server=None):
    """Cached tool entries ({name, alias, description, input_schema}) of a loaded server."""
    if server is None:
        raise MCPError('list_tools_sync(server) requires a server name')
    return tuple(copy.deepcopy(_find_server(server)['tools']))


async def list_tools(server=None):
    """The server's live tool list from the host (raw MCP tool dicts, `inputSchema` camelCase)."""
    if server is None:
        raise MCPError('list_tools(server) requires a server name')
    return list(await _rpc({'type': 'list_tools', 'server': _find_server(server)['name']}, 'tools'))


def query_tool_docs_sync(server, tool=None, detail='summary'):
    """Docs of a server's tools; with `tool` (name or alias, any case) a one-element list."""
    meta = _find_server(server)
    if tool is None:
        return [_doc(meta, entry, detail) for entry in meta['tools']]
    if not isinstance(tool, str):
        raise MCPError("'tool' must be a string when provided")
    entry = _find_tool(meta, tool)
    if entry is None:
        raise MCPError('Tool %r not found for server %s' % (tool, meta['name']))
    return [_doc(meta, entry, detail)]


async def query_tool_docs(server, tool=None, detail='summary'):
    """Async twin of query_tool_docs_sync. Always a list: the reference returned a bare dict for one tool."""
    return query_tool_docs_sync(server, tool, detail)


def _score(tokens, server, entry):
    """Relevance of a tool for the query tokens, or None unless every token occurs in its keyword text.
    Per token: 4 = equals the tool name or alias, 2 = inside the tool name or alias, 1 = only in the server
    name/alias or the description. So a tool whose name matches outranks one that merely mentions the words."""
    names = (entry['name'].lower(), entry['alias'])
    rest = ' '.join((server['name'].lower(), server['alias'], entry['description'].lower()))
    score = 0
    for token in tokens:
        if token in names:
            score += 4
        elif any(token in name for name in names):
            score += 2
        elif token in rest:
            score += 1
        else:
            return None
    return score


def search_tool_docs_sync(query, *, limit=DEFAULT_SEARCH_LIMIT, detail='summary'):
    """Tools of the loaded servers whose keyword text contains every word of `query`, best match first
    (ties keep load order, then tool order). `limit` is clamped to 1..20."""
    if query is not None and not isinstance(query, str):
        raise MCPError("'query' must be a string")
    tokens = (query or '').lower().split()
    if not tokens:
        raise MCPError("Missing 'query' value")
    if limit is None:
        limit = DEFAULT_SEARCH_LIMIT
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise MCPError("'limit' must be an integer")
    limit = max(1, min(MAX_SEARCH_LIMIT, limit))
    hits = []
    for server in _servers:
        for entry in server['tools']:
            score = _score(tokens, server, entry)
            if score is not None:
                hits.append((score, server, entry))
    hits.sort(key=lambda hit: -hit[0])  # stable: equal scores stay in load order
    return [_doc(server, entry, detail) for _, server, entry in hits[:limit]]


async def search_tool_docs(query, *, limit=DEFAULT_SEARCH_LIMIT, detail='summary'):
    """Async twin of search_tool_docs_sync (computed locally; no host round trip)."""
    return search_tool_docs_sync(query, limit=limit, detail=detail)


def describe_server(name):
    """A copy of a loaded server's metadata: {name, alias, description, tools, cwd}."""
    return copy.deepcopy(_find_server(name))


def list_loaded_server_metadata():
    """Copies of the metadata of every loaded server, in request order."""
    return tuple(copy.deepcopy(server) for server in _servers)


async def call_tool(server, tool, arguments=None):
    """Call a tool on a loaded server and return its CallToolResult dict (content, isError, ...).
    A result with isError true is returned as data; only failures to get a result raise MCPError."""
    meta = _find_server(server)
    if not isinstance(tool, str) or not tool:
        raise MCPError('Missing tool name')
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise MCPError('Arguments must be an object')
    entry = _find_tool(meta, tool)  # an alias works too; unknown names go through (the live list may be newer)
    payload = {'type': 'call_tool', 'server': meta['name'], 'tool': entry['name'] if entry else tool,
               'arguments': arguments}
    return await _rpc(payload, 'result')


def end_session():
    """Ends this call's session when the call is done (its sandbox is removed); outside a session, nothing."""
    _sandbar.end_requested = True


def capability_summary():
    """The sandbox manual: how to find and call MCP tools from this Python sandbox."""
    loaded = ', '.join('%s (mcp_%s)' % (s['name'], s['alias']) for s in _servers) or 'none'
    return '''--- PYTHON SANDBOX MANUAL ---
1. Fresh sandbox: each run_python call gets a new single-use container. Variables, files and installed
   packages do not persist between runs, so there is nothing to save; unless you pass session="new" and
   then the id it returns: that session keeps variables and /workspace until runtime.end_session(). Prefer doing the work in code
   (loops, filtering, combining tool results) over many separate tool calls; print only what you need.
2. Discovery: runtime.discovered_servers() names every MCP server you may load (detailed=True adds
   descriptions). For loaded servers, runtime.search_tool_docs_sync("words") finds tools by keyword and
   runtime.query_tool_docs_sync(server, detail="full") shows their input schemas. Do not guess names.
3. Loading: pass servers=["name", ...] to run_python to load servers for that run.
   Loaded now: %s.
4. Helpers: `runtime` (the mcp.runtime module) is pre-bound: list_servers_sync(), list_tools_sync(server),
   query_tool_docs_sync(server, tool=None, detail="summary"), search_tool_docs_sync(query, limit=5),
   describe_server(name), list_loaded_server_metadata(), and the awaitable call_tool(server, tool, {...}),
   list_tools(server), list_servers(), query_tool_docs(...), search_tool_docs(...).
5. Proxies: result = await mcp_<alias>.<tool_alias>(arg=value), keyword arguments only; also
   mcp_servers["name"] and `from mcp.servers.<alias> import *`. A result has content and isError: a tool
   error is returned as a result with isError true; a call that fails outright raises runtime.MCPError.
''' % loaded


__all__ = [
    'MCPError', 'ToolCallDenied', 'call_tool', 'capability_summary', 'describe_server', 'discovered_servers',
    'end_session', 'list_loaded_server_metadata', 'list_servers', 'list_servers_sync', 'list_tools', 'list_tools_sync',
    'query_tool_docs', 'query_tool_docs_sync', 'search_tool_docs', 'search_tool_docs_sync',
]


# ---- tool functions, proxies, synthetic modules --------------------------------------------------------------

def _tool_function(server, entry, module_name):
    """A keyword-only coroutine function calling one tool; a positional argument is a TypeError at call time."""
    async def tool(**arguments):
        return await call_tool(server['name'], entry['name'], arguments)
    tool.__name__ = tool.__qualname__ = entry['alias']
    # Before 3.10 the "takes 0 positional arguments" TypeError names the code object, not the function.
    tool.__code__ = tool.__code__.replace(co_name=entry['alias'])
    tool.__doc__ = entry['description'] or 'MCP tool %s from %s' % (entry['name'], server['name'])
    tool.__module__ = module_name
    return tool


class MCPServerProxy:
    """`mcp_<alias>`: attribute access by tool alias (or exact original name) gives an async tool function.
    Like the reference, the list_tools() method shadows a tool aliased list_tools (use runtime.call_tool)."""

    __slots__ = ('_server', '_functions')

    def __init__(self, server, functions):
        self._server = server
        self._functions = functions  # alias -> tool function

    def __getattr__(self, attr):
        # Only called when normal lookup fails, so methods and slots always win over tool names.
        function = self._functions.get(attr)
        if function is not None:
            return function
        for entry in self._server['tools']:
            if entry['name'] == attr:
                return self._functions[entry['alias']]
        if attr.startswith('__'):
            raise AttributeError(attr)  # protocol probes (copy, pickle, ...): no tool lookup message
        raise AttributeError(self._no_tool_message(attr))

    def _no_tool_message(self, attr):
        # Unlike the reference, a typo is not sent to the host as a raw tool name: say what exists instead.
        aliases = sorted(self._functions)
        import difflib  # only for this message: not worth its import time in every sandbox
        close = difflib.get_close_matches(attr, aliases, n=1)
        hint = ' Did you mean %r?' % close[0] if close else ''
        shown = ', '.join(aliases[:8]) + (', ...' if len(aliases) > 8 else '')
        return ('MCP server %r has no tool %r.%s Tools: %s (all of them: runtime.list_tools_sync(%r))'
                % (self._server['name'], attr, hint, shown or 'none', self._server['name']))

    def __dir__(self):
        return sorted(set(self._functions) | {'list_tools'})

    def __repr__(self):
        return '<MCP server %r: mcp_%s, %d tools>' % (self._server['name'], self._server['alias'],
                                                     len(self._server['tools']))

    async def list_tools(self):
        """The server's live tool list from the host."""
        return await list_tools(self._server['name'])


MCPServerProxy.__module__ = 'mcp.runtime'


def _new_module(name, doc, package=False):
    """A real module object in sys.modules. Packages get an empty __path__: their submodules come only from
    sys.modules, and nothing of a real MCP SDK in the image can be imported through them."""
    module = types.ModuleType(name, doc)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=package)
    if package:
        module.__path__ = []
    module.__package__ = name if package else name.rpartition('.')[0]
    sys.modules[name] = module
    return module


def _server_module(server):
    name = 'mcp.servers.' + server['alias']
    functions = {entry['alias']: _tool_function(server, entry, name) for entry in server['tools']}
    module = _new_module(name, "MCP server '%s' wrappers" % server['name'])
    # Tool functions first, so a tool aliased like a module attribute (__name__, ...) cannot replace it.
    module.__dict__.update(functions)
    module.TOOLS = server['tools']
    module.TOOL_MAP = {entry['alias']: entry for entry in server['tools']}
    module.__all__ = list(functions)
    return module, functions


def prebound_names(context):
    """Install the mcp package for this run's context and return the names user code starts with."""
    global _servers, _discovered
    info = context.get('mcp') if isinstance(context, dict) else None
    info = info if isinstance(info, dict) else {}
    _servers = build_metadata(info.get('loaded') or [])
    discovered = info.get('discovered')
    if not isinstance(discovered, list):
        discovered = info.get('loaded') or []  # older hosts: only the loaded servers are known
    _discovered = [{'name': item['name'], 'description': _text(item.get('description'))}
                   for item in discovered if isinstance(item, dict) and isinstance(item.get('name'), str)]

    package = _new_module('mcp', "Sandbar's MCP bridge: mcp.runtime and mcp.servers.<alias>.", package=True)
    runtime = _new_module('mcp.runtime', 'Helpers to discover and call the MCP servers loaded for this run.')
    for public in __all__:
        value = globals()[public]
        if isinstance(value, types.FunctionType):
            value.__module__ = 'mcp.runtime'
        setattr(runtime, public, value)
    runtime.__all__ = list(__all__)
    servers_package = _new_module('mcp.servers', 'One module of tool wrappers per loaded MCP server.', package=True)
    package.runtime, package.servers = runtime, servers_package

    names = {'mcp': package, 'runtime': runtime}
    proxies = {}
    for server in _servers:
        module, functions = _server_module(server)
        setattr(servers_package, server['alias'], module)
        proxies[server['name']] = names['mcp_' + server['alias']] = MCPServerProxy(server, functions)
    servers_package.__all__ = [server['alias'] for server in _servers]
    names['mcp_servers'] = proxies
    names['LOADED_MCP_SERVERS'] = list_servers_sync()
    return names
