// One tools/call over Streamable HTTP, for `sandbar run` joining a running instance. Not the SDK client:
// loading it (zod, ajv) costs about 150 ms, half the 0.3 s a joined run may take; this is the four
// requests the transport spec defines (initialize, initialized, the call, closing the session).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const PROTOCOL_VERSION = '2025-06-18';

interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The JSON-RPC messages of an answer, whether it came as JSON or as a Server-Sent Events stream. */
export function messagesOf(contentType: string, body: string): JsonRpcMessage[] {
  if (!contentType.includes('text/event-stream')) return body.trim() ? [JSON.parse(body) as JsonRpcMessage] : [];
  const out: JsonRpcMessage[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) out.push(JSON.parse(data) as JsonRpcMessage);
  }
  return out;
}

export async function callToolOnce(
  url: string,
  token: string,
  call: { name: string; arguments: Record<string, unknown> },
  clientInfo: { name: string; version: string },
): Promise<CallToolResult> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = async (message: object): Promise<Response> => {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
    if (!res.ok) throw new Error(`Sandbar answered ${res.status}: ${await res.text()}`);
    return res;
  };
  const answer = async (res: Response, id: number): Promise<unknown> => {
    const found = messagesOf(res.headers.get('content-type') ?? '', await res.text()).find((m) => m.id === id);
    if (!found) throw new Error('Sandbar sent no answer to the request');
    if (found.error) throw new Error(found.error.message);
    return found.result;
  };

  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo } });
  const session = init.headers.get('mcp-session-id');
  const { protocolVersion } = (await answer(init, 1)) as { protocolVersion: string };
  if (session) headers['mcp-session-id'] = session;
  headers['mcp-protocol-version'] = protocolVersion;
  try {
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    return (await answer(await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call }), 2)) as CallToolResult;
  } finally {
    if (session) await fetch(url, { method: 'DELETE', headers }).then((r) => r.text(), () => '');
  }
}
