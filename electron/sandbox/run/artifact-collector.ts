// Collects one run's figures, displayed images and /workspace/out files from the agent's `display` and
// `file` frames. Everything in a frame is the sandbox's word, so every field is checked here: images by
// their header alone (never decoded), names against the artifact name rule, sizes against the caps. What
// fails is refused with a reason, and the run goes on. Memory stays bounded by the caps whatever arrives.
import {
  MAX_IMAGE_EDGE_PX,
  type Artifact,
  type ArtifactSource,
  type RefusedArtifact,
} from '../../../shared/artifacts.js';
import { stripControlChars } from '../../../shared/control-chars.js';
import { formatBytes } from '../../../shared/limits.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { readImageHeader } from './image-header.js';

export interface ArtifactCaps {
  /** One figure or displayed image (settings: imageCapBytes). */
  imageCapBytes: number;
  /** Files from /workspace/out, and their total bytes (settings: artifactMaxFiles, artifactMaxBytes). */
  maxFiles: number;
  maxBytes: number;
}

export const DEFAULT_ARTIFACT_CAPS: ArtifactCaps = {
  imageCapBytes: DEFAULT_SETTINGS.imageCapBytes,
  maxFiles: DEFAULT_SETTINGS.artifactMaxFiles,
  maxBytes: DEFAULT_SETTINGS.artifactMaxBytes,
};

/** Whatever the caps, a loop of figures must not fill the host's memory: images kept per run, and their bytes. */
export const MAX_RUN_IMAGES = 64;
export const MAX_RUN_IMAGE_BYTES = 64 * 1024 * 1024;
/** Refusals named one by one; past this, one line counts the rest. */
export const MAX_REFUSED = 50;
/** File names remembered per run (to refuse one sent twice); past this, new names are refused and counted. */
export const MAX_FILE_NAMES = 512;

/** `out/` then segments of [A-Za-z0-9._-] (never `.` or `..`), as shared/artifacts.ts defines names. */
const FILE_NAME_RE = /^out(\/[A-Za-z0-9._-]+)+$/;
const MAX_NAME_CHARS = 512;

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  pdf: 'application/pdf', csv: 'text/csv', tsv: 'text/tab-separated-values', txt: 'text/plain', log: 'text/plain',
  md: 'text/markdown', json: 'application/json', jsonl: 'application/x-ndjson', html: 'text/html', htm: 'text/html',
  xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml', parquet: 'application/vnd.apache.parquet',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', zip: 'application/zip', gz: 'application/gzip',
};

/** A file's type by its extension; the host decides it, never the sandbox. */
export function mimeTypeOf(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && MIME_BY_EXTENSION[ext]) || 'application/octet-stream';
}

type Json = Record<string, unknown>;

interface PendingFile {
  name: string;
  chunks: Buffer[];
  size: number;
}

export class ArtifactCollector {
  private readonly images: Artifact[] = [];
  private readonly files: Artifact[] = [];
  private readonly refused: RefusedArtifact[] = [];
  private refusedBeyond = 0;
  private readonly counters = { figure: 0, display: 0 };
  private imageBytes = 0;
  private fileBytes = 0;
  private fileCount = 0;
  private pending: PendingFile | undefined;
  /** Every file name seen (kept, refused or in progress): a name is used once per run. */
  private readonly fileNames = new Set<string>();

  constructor(private readonly caps: ArtifactCaps = DEFAULT_ARTIFACT_CAPS) {}

  /** A `display` frame: a figure or a displayed image (PNG, JPEG, or SVG as a link). */
  addDisplay(frame: Json): void {
    // The agent sends at most so many display frames per run, then one saying how many more it left out.
    if (Number.isSafeInteger(frame.dropped) && (frame.dropped as number) > 0) {
      this.refusedBeyond += frame.dropped as number;
      return;
    }
    const source: ArtifactSource = frame.source === 'figure' ? 'figure' : 'display';
    const svg = frame.mime === 'image/svg+xml';
    const n = ++this.counters[source];
    const nameAs = (ext: string) => `${source}-${n}.${ext}`;
    const claimed = svg ? 'svg' : frame.mime === 'image/jpeg' ? 'jpeg' : 'png';
    const refuse = (reason: string) => this.refuse({ name: nameAs(claimed), source, reason });
    const cap = this.caps.imageCapBytes;
    if (typeof frame.data !== 'string') {
      const size = Number.isSafeInteger(frame.size) ? (frame.size as number) : 0;
      refuse(size > cap ? overCap(size, cap) : 'the sandbox sent no image data');
      return;
    }
    // base64 is 4 characters per 3 bytes: a frame over the cap is refused before it is decoded.
    if (Math.floor((frame.data.length * 3) / 4) > cap + 2) {
      refuse(overCap(Math.floor((frame.data.length * 3) / 4), cap));
      return;
    }
    const data = Buffer.from(frame.data, 'base64');
    if (data.length > cap) return refuse(overCap(data.length, cap));
    if (this.images.length >= MAX_RUN_IMAGES) return refuse(`over the limit of ${MAX_RUN_IMAGES} images per run`);
    if (this.imageBytes + data.length > MAX_RUN_IMAGE_BYTES) return refuse(`over the limit of ${formatBytes(MAX_RUN_IMAGE_BYTES)} of images per run`);
    const title = typeof frame.title === 'string' ? stripControlChars(frame.title).trim().slice(0, 200) : '';
    let artifact: Artifact;
    if (svg) {
      if (!/<svg[\s>]/i.test(data.subarray(0, 64 * 1024).toString('utf8'))) return refuse('not an SVG document');
      artifact = { name: nameAs('svg'), mimeType: 'image/svg+xml', size: data.length, source, data };
    } else {
      const header = readImageHeader(data);
      if (!header.ok) return refuse(header.reason);
      if (header.width > MAX_IMAGE_EDGE_PX || header.height > MAX_IMAGE_EDGE_PX) {
        return refuse(`${header.width}×${header.height} px is over the ${MAX_IMAGE_EDGE_PX} px edge models accept`);
      }
      const ext = header.mimeType === 'image/jpeg' ? 'jpeg' : 'png';
      artifact = { name: nameAs(ext), mimeType: header.mimeType, size: data.length, source, data, width: header.width, height: header.height };
    }
    if (title) artifact.title = title;
    this.imageBytes += data.length;
    this.images.push(artifact);
  }

  /** A `file` frame: one chunk of a file under /workspace/out (in order, `last` on the final one), or `omitted`. */
  addFile(frame: Json): void {
    const rawName = typeof frame.name === 'string' ? frame.name : '';
    const name = validFileName(rawName) ? rawName : null;
    const shown = name ?? (stripControlChars(rawName).slice(0, 200) || '(unnamed)');
    const refuse = (reason: string) => this.refuse({ name: shown, source: 'file', reason });
    if (this.pending && this.pending.name !== name) this.abandonPending('the sandbox started another file before finishing it');
    if (!name) return refuse('not a valid artifact name');
    if (!this.fileNames.has(name) && this.fileNames.size >= MAX_FILE_NAMES) {
      this.refusedBeyond += 1; // named nowhere: only counted, so a flood of names costs nothing to keep
      return;
    }
    if (typeof frame.omitted === 'string' || frame.omitted === true) {
      if (this.fileNames.has(name)) return refuse('sent twice');
      this.fileNames.add(name);
      return refuse(this.omittedReason(frame.omitted, Number.isSafeInteger(frame.size) ? (frame.size as number) : null));
    }
    if (typeof frame.data !== 'string' || !Number.isSafeInteger(frame.offset)) return refuse('malformed file frame');
    let file = this.pending;
    if (!file) {
      if (this.fileNames.has(name)) return refuse('sent twice');
      this.fileNames.add(name);
      if (frame.offset !== 0) return refuse('malformed file frame (does not start at offset 0)');
      if (this.fileCount >= this.caps.maxFiles) return refuse(this.omittedReason('files', null));
      file = this.pending = { name, chunks: [], size: 0 };
    } else if (frame.offset !== file.size) {
      return this.abandonPending('chunks out of order');
    }
    if (this.fileBytes + file.size + Math.floor((frame.data.length * 3) / 4) > this.caps.maxBytes + 2) {
      return this.abandonPending(this.omittedReason('bytes', null));
    }
    const chunk = Buffer.from(frame.data, 'base64');
    if (this.fileBytes + file.size + chunk.length > this.caps.maxBytes) return this.abandonPending(this.omittedReason('bytes', null));
    file.chunks.push(chunk);
    file.size += chunk.length;
    if (frame.last === true) this.completeFile(file);
  }

  /** What the run hands back; keys only when there is something (a plain-text result stays as it was). */
  result(): { artifacts?: Artifact[]; refusedArtifacts?: RefusedArtifact[] } {
    if (this.pending) this.abandonPending('incomplete: the run ended while it was being sent');
    const artifacts = [...this.images, ...this.files];
    const refused = [...this.refused];
    if (this.refusedBeyond > 0) refused.push({ name: '…', source: 'file', reason: `and ${this.refusedBeyond} more not kept` });
    return { ...(artifacts.length ? { artifacts } : {}), ...(refused.length ? { refusedArtifacts: refused } : {}) };
  }

  private completeFile(file: PendingFile): void {
    this.pending = undefined;
    const data = Buffer.concat(file.chunks);
    const mimeType = mimeTypeOf(file.name);
    const artifact: Artifact = { name: file.name, mimeType, size: data.length, source: 'file', data };
    if (mimeType === 'image/png' || mimeType === 'image/jpeg') {
      // A file is kept whatever it holds, but it is called an image only when its header says so.
      const header = readImageHeader(data);
      if (header.ok && header.mimeType === mimeType) Object.assign(artifact, { width: header.width, height: header.height });
      else artifact.mimeType = 'application/octet-stream';
    }
    this.fileCount += 1;
    this.fileBytes += data.length;
    this.files.push(artifact);
  }

  private abandonPending(reason: string): void {
    const file = this.pending;
    if (!file) return;
    this.pending = undefined;
    this.refuse({ name: file.name, source: 'file', reason });
  }

  private omittedReason(kind: unknown, size: number | null): string {
    const sized = size !== null ? ` (${formatBytes(size)})` : '';
    if (kind === 'files') return `not returned: over the limit of ${this.caps.maxFiles} files per run (artifactMaxFiles)`;
    if (kind === 'bytes') return `not returned${sized}: over the limit of ${formatBytes(this.caps.maxBytes)} of files per run (artifactMaxBytes)`;
    if (kind === 'unreadable') return 'not returned: the sandbox could not read it';
    return 'not returned by the sandbox';
  }

  private refuse(entry: RefusedArtifact): void {
    if (this.refused.length < MAX_REFUSED) this.refused.push(entry);
    else this.refusedBeyond += 1;
  }
}

function overCap(size: number, cap: number): string {
  return `${formatBytes(size)} is over the image cap of ${formatBytes(cap)} (imageCapBytes)`;
}

function validFileName(name: string): boolean {
  return name.length <= MAX_NAME_CHARS && FILE_NAME_RE.test(name) && !name.split('/').some((s) => s === '.' || s === '..');
}
