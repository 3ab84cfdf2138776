// Pure: which judged folders the backend in use can mount. One it cannot (a pod on a cluster node, a
// writable folder on Docker) joins the refused, with the backend's own reason, and is never mounted.
import type { FolderMount, FolderRefusal } from '../../shared/folders.js';
import type { BackendFeatures } from './backend.js';

export interface FolderPlan {
  mounts: FolderMount[];
  refused: FolderRefusal[];
}

export function fitFolders(features: Pick<BackendFeatures, 'label' | 'folders'>, judged: FolderPlan): FolderPlan {
  const mounts: FolderMount[] = [];
  const refused = [...judged.refused];
  for (const m of judged.mounts) {
    const support = m.writable ? features.folders.writable : features.folders.readOnly;
    if (support === true) mounts.push(m);
    else refused.push({ name: m.name, path: m.source, reason: `cannot be mounted ${m.writable ? 'writable ' : ''}on ${features.label}: ${support}` });
  }
  return { mounts, refused };
}

