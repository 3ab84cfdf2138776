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
  const blocks = new Blocks(run);
  const candidates = run.artifacts.filter(canInline).slice(0, maxInline);
  const inline = new Set(candidates);
  // Sizes are worked out from the blocks rather than by serializing megabytes of images again and again:
  // everything as links, plus what each inline image adds. The result is measured for real at the end.
  let bytes = responseBytes(shape(base, run, blocks, new Set(), true)) + candidates.reduce((n, a) => n + blocks.savedByLinking(a), 0);
  // The largest images go first: each step frees the most bytes, so the fewest images become links.
  const bySize = [...inline].sort((a, b) => b.size - a.size);
  for (const image of bySize) {
    if (bytes <= maxBytes) break;
    inline.delete(image);
    bytes -= blocks.savedByLinking(image);
  }
  let result = shape(base, run, blocks, inline, true);
  // The estimate is exact but for a few bytes of commas; should it ever be short, links go one by one.
  for (const image of bySize) {
    if (responseBytes(result) <= maxBytes) return result;
    if (!inline.delete(image)) continue;
    result = shape(base, run, blocks, inline, true);
  }
  if (responseBytes(result) <= maxBytes || !result._meta) return result;
  // Only text is left: the copy for `sandbar run` goes (the caller cuts the output if that is not enough).
  return shape(base, run, blocks, inline, false);
}

/** Each artifact's blocks and line, built once however often the result is reshaped. */
class Blocks {
  private readonly images = new Map<Artifact, ContentBlock>();
  private readonly numbers = new Map<Artifact, number | null>();

  constructor(private readonly run: RunArtifacts) {
    let number = 0;
    for (const a of run.artifacts) this.numbers.set(a, isPicture(a) ? ++number : null);
  }

  image(a: Artifact): ContentBlock {
    let block = this.images.get(a);
    if (!block) {
      block = { type: 'image', mimeType: a.mimeType, data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString('base64') };
      this.images.set(a, block);
    }
    return block;
  }

  link(a: Artifact): ContentBlock {
    return { type: 'resource_link', uri: artifactUri(this.run.runId, a.name), name: a.name, mimeType: a.mimeType, size: a.size, ...(a.title ? { title: a.title } : {}) };
  }

  line(a: Artifact, inline: boolean): string {
    return artifactLine(a, this.numbers.get(a) ?? null, inline);
  }

  /** Serialized bytes saved when an inline image becomes a link (its line grows a little). */
  savedByLinking(a: Artifact): number {
    const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
    // Base64 needs no escaping: the block is its frame plus its data, without serializing the data.
    const image = size({ type: 'image', mimeType: a.mimeType, data: '' }) + 4 * Math.ceil(a.data.byteLength / 3) + 1;
    return image - size(this.link(a)) - (size(this.line(a, false)) - size(this.line(a, true)));
  }
}

function shape(base: CallToolResult, run: RunArtifacts, blocks: Blocks, inline: ReadonlySet<Artifact>, keepMeta: boolean): CallToolResult {
  const [first, ...rest] = base.content;
  const lines: string[] = [];
  const images: ContentBlock[] = [];
  const links: ContentBlock[] = [];
  for (const a of run.artifacts) {
    const shown = inline.has(a);
    lines.push(blocks.line(a, shown));
    if (shown) images.push(blocks.image(a));
    else links.push(blocks.link(a));
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
