// A run's figures, displays and files in the panel (Live and History): PNG/JPEG thumbnails loaded as blobs
// (the CSP allows `img-src blob:`), each with open (a larger view) and save; every other type, SVG and HTML
// included, is a file chip that can only be saved, never rendered; and what the host refused, with why.
import { useState } from 'react';
import type { ArtifactMeta, RefusedArtifact } from '../../../shared/artifacts.js';
import { api, describeError } from '../../api/index.js';
import { Button } from '../../components/button.js';
import { Dialog } from '../../components/dialog.js';
import { formatBytes } from '../../lib/format.js';
import { useUiStore } from '../../stores/ui-store.js';
import { describeArtifact, downloadName, fetchArtifactBlob, isThumbnailType, saveBlob } from './artifact-bytes.js';
import { useArtifactUrl } from './use-artifact-url.js';
import './artifacts.css';

interface Opened {
  meta: ArtifactMeta;
  url: string;
  blob: Blob;
}

function Thumbnail({ runId, meta, onOpen }: { runId: string; meta: ArtifactMeta; onOpen: (opened: Opened) => void }) {
  const state = useArtifactUrl(runId, meta.name);
  const label = describeArtifact(meta);
  return (
    <figure className="artifact-thumb" data-artifact={meta.name}>
      {state.phase === 'ready' ? (
        <button type="button" className="artifact-thumb-open" aria-label={`Open ${label}`} title="Open a larger view" onClick={() => onOpen({ meta, url: state.url, blob: state.blob })}>
          <img src={state.url} alt={label} />
        </button>
      ) : (
        <div className={`artifact-thumb-placeholder${state.phase === 'error' ? ' is-error' : ''}`} role={state.phase === 'error' ? 'alert' : undefined}>
          {state.phase === 'error' ? `Could not load ${meta.name}: ${state.error}` : 'Loading…'}
        </div>
      )}
      <figcaption>
        <span className="artifact-name" title={meta.name}>
          {meta.title || meta.name}
        </span>
        <span className="artifact-meta muted small num">
          {meta.width !== undefined && meta.height !== undefined ? `${meta.width}×${meta.height} · ` : ''}
          {formatBytes(meta.size)}
        </span>
        <Button size="sm" variant="ghost" disabled={state.phase !== 'ready'} aria-label={`Save ${meta.name}`} onClick={() => state.phase === 'ready' && saveBlob(state.blob, downloadName(meta))}>
          Save
        </Button>
      </figcaption>
    </figure>
  );
}

function FileChip({ runId, meta }: { runId: string; meta: ArtifactMeta }) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchArtifactBlob(api, runId, meta.name), downloadName(meta));
    } catch (err) {
      useUiStore.getState().toastShown('fail', `Could not save ${meta.name}: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="artifact-chip" data-artifact={meta.name}>
      <code className="artifact-name" title={meta.name}>
        {meta.name}
      </code>
      <span className="muted small">
        {meta.mimeType} · {formatBytes(meta.size)}
      </span>
      <Button size="sm" variant="ghost" busy={busy} aria-label={`Save ${meta.name}`} onClick={() => void save()}>
        Save
      </Button>
    </span>
  );
}

export function ArtifactGallery({ runId, artifacts, refused = [] }: { runId: string; artifacts: readonly ArtifactMeta[]; refused?: readonly RefusedArtifact[] }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const images = artifacts.filter((a) => isThumbnailType(a.mimeType));
  const files = artifacts.filter((a) => !isThumbnailType(a.mimeType));
  return (
    <div className="artifacts">
      {images.length > 0 && (
        <ul className="artifact-thumbs" aria-label="Figures and images">
          {images.map((a) => (
            <li key={a.name}>
              <Thumbnail runId={runId} meta={a} onOpen={setOpened} />
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <ul className="artifact-files" aria-label="Files">
          {files.map((a) => (
            <li key={a.name}>
              <FileChip runId={runId} meta={a} />
            </li>
          ))}
        </ul>
      )}
      {refused.length > 0 && (
        <ul className="artifact-refused" aria-label="Not kept">
          {refused.map((r) => (
            <li key={r.name}>
              Not kept: <code>{r.name}</code>: {r.reason}
            </li>
          ))}
        </ul>
      )}
      {opened && (
        <Dialog
          wide
          title={opened.meta.title || opened.meta.name}
          onClose={() => setOpened(null)}
          footer={
            <Button size="sm" onClick={() => saveBlob(opened.blob, downloadName(opened.meta))}>
              Save {downloadName(opened.meta)}
            </Button>
          }
        >
          <img className="artifact-large" src={opened.url} alt={describeArtifact(opened.meta)} />
        </Dialog>
      )}
    </div>
  );
}
