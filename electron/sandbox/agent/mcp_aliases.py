# The alias rules of Sandbar's sandbox-side MCP API [compat, REFERENCE 4.4], delivered to the agent as the boot
# module `_sandbar_mcp_aliases` before `_sandbar_mcp`, which imports it. Pure functions over the start
# context's metadata: which Python names a run's servers and tools get. Python 3.8+, stdlib only.
import keyword
import re

_SERVER_ALIAS_JUNK = re.compile(r'[^a-z0-9_]+')
_TOOL_ALIAS_JUNK = re.compile(r'[^0-9a-zA-Z_]+')
# `mcp_servers` is the dict of proxies, so a server aliased `servers` must not take the name `mcp_servers`.
_RESERVED_SERVER_ALIASES = ('servers',)


def _server_alias_base(name):
    alias = _SERVER_ALIAS_JUNK.sub('_', name.lower()) or 'server'
    if alias[0].isdigit():
        alias = '_' + alias
    return alias + '_' if keyword.iskeyword(alias) else alias


def _tool_alias_base(name):
    alias = _TOOL_ALIAS_JUNK.sub('_', name.strip()).lower() or 'tool'
    if alias[0].isdigit():
        alias = '_' + alias
    return alias + '_' if keyword.iskeyword(alias) else alias


def _unique(base, used, repeats):
    """The n-th use of `base` becomes base_n. Unlike the reference, a suffixed alias that is already taken (a tool
    literally named get_file_2) is skipped too, so two tools never share an alias."""
    count = repeats.get(base, 0) + 1
    alias = base if count == 1 else '%s_%d' % (base, count)
    while alias in used:
        count += 1
        alias = '%s_%d' % (base, count)
    repeats[base] = count
    used.add(alias)
    return alias


def text(value):
    """A description as shown: stripped, or '' when the server sent none."""
    return value.strip() if isinstance(value, str) else ''


def build_metadata(loaded):
    """Metadata of the loaded servers (REFERENCE 4.4 plus `description`), aliases assigned in load order."""
    servers, used, repeats = [], set(_RESERVED_SERVER_ALIASES), {}
    for raw in loaded:
        if not isinstance(raw, dict) or not isinstance(raw.get('name'), str):
            continue  # the host never sends these; skipping beats failing the whole run
        name = raw['name']
        tools, tool_used, tool_repeats = [], set(), {}
        for tool in raw.get('tools') or []:
            if not isinstance(tool, dict):
                continue
            tool_name = tool.get('name') if isinstance(tool.get('name'), str) else ''
            tools.append({
                'name': tool_name,
                'alias': _unique(_tool_alias_base(tool_name), tool_used, tool_repeats),
                'description': text(tool.get('description')),
                'input_schema': tool.get('inputSchema'),
            })
        cwd = raw.get('cwd')
        servers.append({
            'name': name,
            'alias': _unique(_server_alias_base(name), used, repeats),
            'description': text(raw.get('description')),
            'tools': tools,
            'cwd': cwd if isinstance(cwd, str) else None,
        })
    return servers
