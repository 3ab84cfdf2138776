// The user's folders a run's sandbox had: where each was on this computer, where the run saw it, and whether
// it could write there.
import type { RunFolder } from '../../../shared/folders.js';
import { Badge } from '../../components/badge.js';

export function FoldersSection({ folders }: { folders: RunFolder[] }) {
  return (
    <>
      <h3>Folders</h3>
      <ul className="hist-folders" aria-label="Folders the run had">
        {folders.map((f) => (
          <li key={f.name}>
            <code>{f.path}</code> at <code>{f.mountPath}</code> <Badge tone={f.writable ? 'warn' : 'ok'}>{f.writable ? 'writable' : 'read-only'}</Badge>
          </li>
        ))}
      </ul>
    </>
  );
}
