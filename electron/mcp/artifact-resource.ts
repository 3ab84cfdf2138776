// `resources/read` of `sandbar://runs/<runId>/artifacts/<name>`: a run's figure, display or file, the same
// bytes the result linked, as a base64 blob, for as long as the run is in the history.
import { ErrorCode, McpError, type BlobResourceContents, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { parseArtifactUri, type Artifact } from '../../shared/artifacts.js';
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

/**
 * The contents for an artifact URI; null when `uri` is not one (the caller answers "unknown resource").
 * An artifact URI naming nothing stored is an error that says so.
 */
export function readArtifact(uri: string, store: ArtifactStore | undefined): BlobResourceContents | null {
  const ref = parseArtifactUri(uri);
  if (!ref) return null;
  let artifact: Artifact | null;
  try {
    artifact = store?.artifact(ref.runId, ref.name) ?? null;
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, `Could not read ${uri}: ${errorMessage(err)}`);
  }
  if (!artifact) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown artifact: ${uri} (no run '${ref.runId}' with an artifact '${ref.name}' in the history; retention may have removed it)`,
    );
  }
  const { data } = artifact;
  return { uri, mimeType: artifact.mimeType, blob: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') };
}
