// Adds a run's figures, displays and files to its run_python result: the text first, a line per artifact
// for models without vision, up to eight PNG/JPEG `image` blocks, and `resource_link`s for the rest.
// Clients drop image blocks when a result also has structuredContent, so such a result has none; and no
// response may pass MAX_RESPONSE_BYTES, so the largest inline images become links until it fits (output
// that is still too long is cut by the caller, tool-result.ts).
import type { CallToolResult, ContentBlock, TextContent } from '@modelcontextprotocol/sdk/types.js';
import {
  artifactUri,
  INLINE_IMAGE_TYPES,
  MAX_INLINE_IMAGES,
  MAX_RESPONSE_BYTES,
  type Artifact,
  type ArtifactMeta,
  type RefusedArtifact,
} from '../../shared/artifacts.js';
import { formatBytes } from '../../shared/limits.js';
import { STRUCTURED_META_KEY } from './result-format.js';

/** `{"jsonrpc":"2.0","id":…,"result":}` around the result: generous for any id a client sends. */
export const RESPONSE_ENVELOPE_BYTES = 512;

export interface RunArtifacts {
  runId: string;
  artifacts: readonly Artifact[];
  refused: readonly RefusedArtifact[];
}

export interface ArtifactContentOptions {
  maxInline?: number;
  maxResponseBytes?: number;
}

const inlineType = (mimeType: string) => (INLINE_IMAGE_TYPES as readonly string[]).includes(mimeType);
/** Figures and displays; a file in /workspace/out is always a link, whatever its type. */
const isPicture = (a: ArtifactMeta) => a.source !== 'file' && a.mimeType.startsWith('image/');
const canInline = (a: ArtifactMeta) => isPicture(a) && inlineType(a.mimeType);

/** The serialized size of the JSON-RPC response that would carry `result`. */
export function responseBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result)) + RESPONSE_ENVELOPE_BYTES;
}

/**
 * One line saying what an artifact is: `figure 1: 'Sales', 1200×800`, `image 2: 640×480`,
 * `image 3 (image/svg+xml, linked as display-3.svg)`, `file out/report.csv (text/csv, 1.2 KiB, linked)`;
 * `number` counts figures and displayed images together.
 */
export function artifactLine(a: ArtifactMeta, number: number | null, inline: boolean): string {
  if (number === null || !isPicture(a)) return `${a.source} ${a.name} (${a.mimeType}, ${formatBytes(a.size)}, linked)`;
  const label = `${a.source === 'figure' ? 'figure' : 'image'} ${number}`;
  const size = a.width !== undefined && a.height !== undefined ? `${a.width}×${a.height}` : null;
  const what = [a.title ? `'${a.title}'` : null, size].filter(Boolean).join(', ');
  if (inline) return `${label}: ${what || a.mimeType}`;
  return `${label}${what ? `: ${what}` : ''} (${inlineType(a.mimeType) ? '' : `${a.mimeType}, `}linked as ${a.name})`;
}

export function refusedLine(r: RefusedArtifact): string {
  return `not returned: ${r.name} (${r.source}): ${r.reason}`;
}

/**
 * `base` is the plain result (its text first, structured content as the reference has it). With no
 * artifacts and nothing refused it comes back as it is: a plain-text result never changes.
 */
export function withArtifacts(base: CallToolResult, run: RunArtifacts, options: ArtifactContentOptions = {}): CallToolResult {
  const maxInline = options.maxInline ?? MAX_INLINE_IMAGES;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  if (run.artifacts.length === 0 && run.refused.length === 0) return base;
  const inline = new Set(run.artifacts.filter(canInline).slice(0, maxInline));
  let keepMeta = true;
  let result = shape(base, run, inline, keepMeta);
  // The largest images go first: each step frees the most bytes, so the fewest images become links.
  const bySize = [...inline].sort((a, b) => b.size - a.size);
  for (const image of bySize) {
    if (responseBytes(result) <= maxBytes) return result;
    inline.delete(image);
    result = shape(base, run, inline, keepMeta);
  }
  if (responseBytes(result) <= maxBytes || !result._meta) return result;
  // Only text is left: the copy for `sandbar run` goes (the caller cuts the output if that is not enough).
  keepMeta = false;
  return shape(base, run, inline, keepMeta);
}

function shape(base: CallToolResult, run: RunArtifacts, inline: ReadonlySet<Artifact>, keepMeta: boolean): CallToolResult {
  const [first, ...rest] = base.content;
  const lines: string[] = [];
  const images: ContentBlock[] = [];
  const links: ContentBlock[] = [];
  let number = 0;
  for (const a of run.artifacts) {
    const shown = inline.has(a);
    lines.push(artifactLine(a, isPicture(a) ? ++number : null, shown));
    if (shown) images.push({ type: 'image', mimeType: a.mimeType, data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString('base64') });
    else links.push({ type: 'resource_link', uri: artifactUri(run.runId, a.name), name: a.name, mimeType: a.mimeType, size: a.size, ...(a.title ? { title: a.title } : {}) });
  }
  for (const r of run.refused) lines.push(refusedLine(r));
  const notes: TextContent = { type: 'text', text: lines.join('\n') };
  const content: ContentBlock[] = [...(first ? [first] : []), ...rest, notes, ...images, ...links];
  const out: CallToolResult = { content, ...(base.isError !== undefined ? { isError: base.isError } : {}) };
  if (images.length === 0 && links.length === 0) {
    // Only refusals: nothing a client could drop, so the structured payload stays.
    if (base.structuredContent) out.structuredContent = base.structuredContent;
  } else if (keepMeta && base.structuredContent) {
    out._meta = { ...base._meta, [STRUCTURED_META_KEY]: base.structuredContent };
  }
  return out;
}
