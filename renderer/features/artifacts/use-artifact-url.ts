// An object URL for one stored artifact, for as long as the component showing it is mounted.
import { useEffect, useState } from 'react';
import { api, describeError } from '../../api/index.js';
import { fetchArtifactBlob } from './artifact-bytes.js';

export type ArtifactUrl = { phase: 'loading' } | { phase: 'ready'; url: string; blob: Blob } | { phase: 'error'; error: string };

export function useArtifactUrl(runId: string, name: string): ArtifactUrl {
  const [state, setState] = useState<ArtifactUrl>({ phase: 'loading' });
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    setState({ phase: 'loading' });
    fetchArtifactBlob(api, runId, name).then(
      (blob) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setState({ phase: 'ready', url, blob });
      },
      (err: unknown) => live && setState({ phase: 'error', error: describeError(err) }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [runId, name]);
  return state;
}
