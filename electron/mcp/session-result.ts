// A session call's result: the first text line names the session (`session: <id>`), a call that ended it
// says why on the next line, a note about its checkpoints (dropped for memory, threads) follows, and
// `structuredContent.session` carries {id, calls, idleExpiresInSec, checkpoints}.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SessionResultInfo } from '../../shared/sessions.js';

export function withSession(result: CallToolResult, info: SessionResultInfo & { ended?: string; note?: string }): CallToolResult {
  const head = `session: ${info.id}${info.ended ? `\nsession ended: ${info.ended}` : ''}${info.note ? `\nsession note: ${info.note}` : ''}`;
  const [first, ...rest] = result.content;
  const content: CallToolResult['content'] =
    first?.type === 'text' ? [{ ...first, text: `${head}\n${first.text}` }, ...rest] : [{ type: 'text', text: head }, ...result.content];
  return { ...result, content, ...(result.structuredContent ? { structuredContent: { ...result.structuredContent, session: info } } : {}) };
}
