// `resources/read` of `sandbar://runs/<runId>/artifacts/<name>`: a run's figure, display or file, the same
// bytes the result linked, for as long as the run is in the history: text types (csv, markdown, JSON,
// plain) as `text`, so clients show them as text, and everything else as a base64 `blob`.
import { ErrorCode, McpError, type BlobResourceContents, type ResourceTemplate, type TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { MAX_RESPONSE_BYTES, parseArtifactUri, type Artifact } from '../../shared/artifacts.js';
import { errorMessage } from '../../shared/errors.js';

/** What the server reads artifacts from: the history store. */
export interface ArtifactStore {
  artifact(runId: string, name: string): Artifact | null;
}

export const ARTIFACT_TEMPLATE: ResourceTemplate = {
  uriTemplate: 'sandbar://runs/{runId}/artifacts/{name}',
  name: 'run-artifact',
  title: 'Run artifact',
  description: 'A figure, image or /workspace/out file of a run_python call, while the run is in the history (the result links each one).',
};

/** Whether the caller asking may read this run's artifacts (run-owners.ts: only the caller that made it). */
export type ArtifactAccess = (runId: string) => boolean;

/**
 * The contents for an artifact URI; null when `uri` is not one (the caller answers "unknown resource").
 * An artifact URI naming nothing stored, or another caller's run, is an error that says "unknown": the
 * same words either way, so a caller cannot learn which run ids exist.
 */
export function readArtifact(uri: string, store: ArtifactStore | undefined, mayRead: ArtifactAccess): BlobResourceContents | TextResourceContents | null {
  const ref = parseArtifactUri(uri);
  if (!ref) return null;
  let artifact: Artifact | null;
  try {
    artifact = mayRead(ref.runId) ? (store?.artifact(ref.runId, ref.name) ?? null) : null;
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, `Could not read ${uri}: ${errorMessage(err)}`);
  }
  if (!artifact) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown artifact: ${uri} (no run '${ref.runId}' with an artifact '${ref.name}' in the history; retention may have removed it)`,
    );
  }
  return artifactContents(uri, artifact);
}

/** Types whose bytes are text: `text/*` and the structured-text application types the collector names. */
export function isTextType(mimeType: string): boolean {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('text/')) return true;
  return ['application/json', 'application/x-ndjson', 'application/xml', 'application/yaml'].includes(type) || /^application\/[\w.-]+\+(json|xml)$/.test(type);
}

/** Room for the JSON-RPC envelope and the contents' own keys around the text. */
const ENVELOPE_BYTES = 200;

/**
 * Pure: the contents for one stored artifact. Text comes back as `text` when it is valid UTF-8 (the same
 * bytes, a BOM included); a "text" file that is not UTF-8 stays a blob, so nothing is altered. Text too
 * large for one response is refused with its size, rather than sent for the client to reject.
 */
export function artifactContents(uri: string, artifact: Artifact, maxResponseBytes = MAX_RESPONSE_BYTES): BlobResourceContents | TextResourceContents {
  const { data, mimeType } = artifact;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const text = isTextType(mimeType) ? utf8(bytes) : null;
  if (text === null) return { uri, mimeType, blob: bytes.toString('base64') };
  const contents: TextResourceContents = { uri, mimeType, text };
  const size = Buffer.byteLength(JSON.stringify(contents)) + ENVELOPE_BYTES;
  if (size > maxResponseBytes) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `${uri} is ${bytes.length.toLocaleString('en-US')} bytes of text, more than one response may carry (${maxResponseBytes.toLocaleString('en-US')} bytes): have the code print the part you need, or save the file from its run in Sandbar's History.`,
    );
  }
  return contents;
}

function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
