// Figures, displayed images and files a run hands back. The engine collects them (agent `display` frames
// and files under /workspace/out), history keeps them with the run, and the MCP result, `resources/read`
// and the panel show them. The host never decodes pixels: it trusts only checked headers.

/** Where an artifact came from: a Matplotlib figure, a `display(obj)` call, or a file in /workspace/out. */
export const ARTIFACT_SOURCES = ['figure', 'display', 'file'] as const;
export type ArtifactSource = (typeof ARTIFACT_SOURCES)[number];

/** The only types that may become inline MCP `image` blocks; every other type is a link only. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

/** Models downscale past this long edge; the sandbox resizes figures and displays to fit it. */
export const MODEL_IMAGE_EDGE_PX = 1568;
/** ...and to about this many pixels. */
export const MODEL_IMAGE_PIXELS = 1_150_000;
/** Models refuse images past this edge; the host refuses them outright. */
export const MAX_IMAGE_EDGE_PX = 8000;
/** At most this many images inline in one result; the rest become links. */
export const MAX_INLINE_IMAGES = 8;
/**
 * No JSON-RPC response may exceed this: a client rejects results over 1,048,576 characters, and a UTF-8
 * byte is never less than a character. The margin is for the envelope's id; close to the limit because a
 * print of 900 KB in short lines (each newline is two characters in JSON) must still arrive whole.
 */
export const MAX_RESPONSE_BYTES = 1_040_000;

export interface ArtifactMeta {
  /**
   * Unique within the run and safe in a URI path: `figure-1.png`, `display-2.jpeg`, or the file's path
   * under /workspace/out (`out/report.csv`). Characters: [A-Za-z0-9._-] and `/` between segments.
   */
  name: string;
  mimeType: string;
  /** Bytes of `data`. */
  size: number;
  source: ArtifactSource;
  /** Pixels, from the checked header (images only). */
  width?: number;
  height?: number;
  /** A figure's title when it has one ("Sales"). */
  title?: string;
}

export interface Artifact extends ArtifactMeta {
  data: Uint8Array;
}

/** Something the sandbox sent that the host would not keep, with the reason the result states. */
export interface RefusedArtifact {
  name: string;
  source: ArtifactSource;
  reason: string;
}

/** The URI a `resource_link` carries and `resources/read` accepts. */
export function artifactUri(runId: string, name: string): string {
  return `sandbar://runs/${encodeURIComponent(runId)}/artifacts/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/** The inverse of `artifactUri`; null for anything else. */
export function parseArtifactUri(uri: string): { runId: string; name: string } | null {
  const [, runId, name] = /^sandbar:\/\/runs\/([^/]+)\/artifacts\/(.+)$/.exec(uri) ?? [];
  if (runId === undefined || name === undefined) return null;
  try {
    return { runId: decodeURIComponent(runId), name: name.split('/').map(decodeURIComponent).join('/') };
  } catch {
    return null;
  }
}
