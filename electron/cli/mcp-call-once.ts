// One tools/call over Streamable HTTP, for `sandbar run` joining a running instance. Not the SDK client:
// loading it (zod, ajv) costs about 150 ms, half the 0.3 s a joined run may take; this is the four
// requests the transport spec defines (initialize, initialized, the call, closing the session).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { closeLoopbackConnections, loopbackRequest, type LoopbackResponse } from '../loopback-http.js';

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

/**
 * The tool's result, or null when the instance did not take the session (nothing listening, a stale
 * instance file, a token it does not know): then nothing ran there, and the caller may run elsewhere.
 */
export async function callToolOnce(
  url: string,
  token: string,
  call: { name: string; arguments: Record<string, unknown> },
  clientInfo: { name: string; version: string },
  options: { connectTimeoutMs?: number } = {},
): Promise<CallToolResult | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = async (message: object): Promise<LoopbackResponse> => {
    const res = await loopbackRequest(url, { method: 'POST', headers, body: JSON.stringify(message) });
    if (res.status < 200 || res.status > 299) throw new Error(`Sandbar answered ${res.status}: ${res.body}`);
    return res;
  };
  const answer = (res: LoopbackResponse, id: number): unknown => {
    const found = messagesOf(String(res.headers['content-type'] ?? ''), res.body).find((m) => m.id === id);
    if (!found) throw new Error('Sandbar sent no answer to the request');
    if (found.error) throw new Error(found.error.message);
    return found.result;
  };

  try {
    // initialize doubles as the probe (no separate GET): with a short timeout, a stale file costs little.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo } };
    const init = await loopbackRequest(url, { method: 'POST', headers, body: JSON.stringify(initialize), timeoutMs: options.connectTimeoutMs ?? 1000 }).catch(() => null);
    if (!init || init.status !== 200) return null;
    const session = init.headers['mcp-session-id'];
    const { protocolVersion } = answer(init, 1) as { protocolVersion: string };
    if (typeof session === 'string') headers['mcp-session-id'] = session;
    headers['mcp-protocol-version'] = protocolVersion;
    try {
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return answer(await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call }), 2) as CallToolResult;
    } finally {
      if (typeof session === 'string') await loopbackRequest(url, { method: 'DELETE', headers }).catch(() => undefined);
    }
  } finally {
    closeLoopbackConnections();
  }
}
