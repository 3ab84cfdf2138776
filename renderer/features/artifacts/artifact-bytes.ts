// A run's stored artifact as a Blob for the panel: fetched on demand over the control API (events carry
// only metadata), decoded from base64, typed with its own MIME type so an <img> decodes only PNG or JPEG.
import type { SandbarApi } from '../../../shared/contract.js';
import { INLINE_IMAGE_TYPES, type ArtifactMeta } from '../../../shared/artifacts.js';

/** Only these get a thumbnail; SVG, HTML and every other type is a file chip (never rendered inline). */
export function isThumbnailType(mimeType: string): boolean {
  return (INLINE_IMAGE_TYPES as readonly string[]).includes(mimeType);
}

export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export async function fetchArtifactBlob(api: SandbarApi, runId: string, name: string): Promise<Blob> {
  const { data, mimeType } = await api.call('executions.artifact', { runId, name });
  return new Blob([base64Bytes(data)], { type: mimeType });
}

/** The file name a download gets: the last path segment (`out/report.csv` → `report.csv`). */
export function downloadName(meta: Pick<ArtifactMeta, 'name'>): string {
  return meta.name.split('/').at(-1) || 'artifact';
}

/** What a figure or display is, in a few words: `figure: 'Sales', 1200×800`. */
export function describeArtifact(meta: ArtifactMeta): string {
  const size = meta.width !== undefined && meta.height !== undefined ? `${meta.width}×${meta.height}` : null;
  const kind = meta.source === 'figure' ? 'figure' : meta.source === 'display' ? 'image' : 'file';
  const what = [meta.title ? `'${meta.title}'` : null, size].filter(Boolean).join(', ');
  return what ? `${kind} ${meta.name}: ${what}` : `${kind} ${meta.name}`;
}

/** Saves bytes as a download: a temporary object URL and anchor, both gone once the click is handled. */
export function saveBlob(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
