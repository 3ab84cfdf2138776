// The /mcp route routes a request to the 2026-07-28 handler exactly when the SDK's own predicate says so:
// the light header view (modern-http.ts) must decide as a full web Request would, header for header.
import type { IncomingMessage } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ModernMcpHttp } from '../../../electron/mcp/modern-http.js';
import { createLogger } from '../../../electron/logger.js';

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_python', arguments: { code: 'print(1)' } } };
const modernMeta = { ...call, params: { ...call.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
const cases: { name: string; headers: Record<string, string | string[]>; body: unknown }[] = [
  { name: 'a 2025-11-25 call', headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'abc' }, body: call },
  { name: 'initialize', headers: {}, body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } } },
  { name: 'a modern header without the envelope', headers: { 'mcp-protocol-version': '2026-07-28' }, body: call },
  { name: 'the envelope claim', headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'run_python' }, body: modernMeta },
  { name: 'a claim with mismatched method header', headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, body: modernMeta },
  { name: 'a batch', headers: {}, body: [call, call] },
  { name: 'a repeated header', headers: { 'mcp-method': ['tools/call', 'tools/list'] }, body: call },
];

describe('2026-07-28 routing on the /mcp route', () => {
  const modern = new ModernMcpHttp({ createServer: () => { throw new Error('not reached'); }, maxBodyBytes: 1 << 20, log: createLogger('test', { SANDBAR_LOG_LEVEL: 'error' }) });

  it.each(cases)('decides $name as the SDK does with a full request', async ({ headers, body }) => {
    const web = new Headers();
    for (const [k, v] of Object.entries(headers)) for (const one of [v].flat()) web.append(k, one);
    const sdkSaysModern = !(await isLegacyRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: web, body: JSON.stringify(body) })));
    const req = { method: 'POST', headers: { host: '127.0.0.1', ...headers }, url: '/mcp' } as unknown as IncomingMessage;
    expect(await modern.claims(req, body)).toBe(sdkSaysModern);
  });

  it('claims the envelope and leaves a plain 2025-11-25 call alone (the cases above differ)', async () => {
    const req = (headers: Record<string, string>) => ({ method: 'POST', headers, url: '/mcp' }) as unknown as IncomingMessage;
    expect(await modern.claims(req(cases[3]!.headers as Record<string, string>), modernMeta)).toBe(true);
    expect(await modern.claims(req(cases[0]!.headers as Record<string, string>), call)).toBe(false);
  });
});
