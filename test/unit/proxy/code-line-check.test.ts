// The code line shown with a question must call that server and tool: the simple rule, both ways of calling.
import { describe, expect, it } from 'vitest';
import { codeLineCallsTool, serverAliasBase, toolAliasBase } from '../../../electron/proxy/code-line-check.js';

describe('codeLineCallsTool', () => {
  it('accepts the proxy form (mcp_<alias>.<tool alias>) and the call_tool form', () => {
    expect(codeLineCallsTool('line 3: r = await mcp_effects.delete_item(name="a")', 'effects', 'delete_item')).toBe(true);
    expect(codeLineCallsTool('line 2: await mcp_demo_server.get_file(path=p)', 'demo-server', 'get-file')).toBe(true);
    expect(codeLineCallsTool('line 9: await runtime.call_tool("demo-server", "get-file", {})', 'demo-server', 'get-file')).toBe(true);
    expect(codeLineCallsTool('line 4: mcp_servers["effects"].delete_item(name=n),', 'effects', 'delete_item')).toBe(true);
  });

  it("refuses a line that does not name both: forged code can only point at a line that isn't the call", () => {
    expect(codeLineCallsTool("line 1: print('harmless')", 'effects', 'delete_item')).toBe(false);
    expect(codeLineCallsTool('line 1: import sys', 'effects', 'delete_item')).toBe(false);
    expect(codeLineCallsTool('line 5: await mcp_effects.read_item(name="a")', 'effects', 'delete_item')).toBe(false);
    expect(codeLineCallsTool('line 6: await mcp_other.delete_item(name="a")', 'effects', 'delete_item')).toBe(false);
    expect(codeLineCallsTool('line 7: await delete_item(name="a")', 'effects', 'delete_item')).toBe(false);
  });

  it('derives aliases like the agent does (without repeat suffixes)', () => {
    expect(serverAliasBase('Other.Srv')).toBe('other_srv');
    expect(serverAliasBase('9lives')).toBe('_9lives');
    expect(serverAliasBase('class')).toBe('class_');
    expect(toolAliasBase('Get File')).toBe('get_file');
    expect(toolAliasBase('class')).toBe('class_');
    expect(toolAliasBase('9lives')).toBe('_9lives');
  });
});
