// Limits › Folders: the user's folders every sandbox sees at /mnt/<name>. Added with the desktop's folder
// picker; saving asks for the desktop's confirmation (folders are host-affecting, refused over HTTP). A
// folder the judge refused is shown with its rule, from health.
import { useState } from 'react';
import type { SettingsView } from '../../../shared/contract.js';
import { folderMountPath, type FolderSetting } from '../../../shared/folders.js';
import { ApiCallError, api, describeError } from '../../api/index.js';
import { Button } from '../../components/button.js';
import { Switch } from '../../components/switch.js';
import { useHealthStore } from '../../stores/health-store.js';
import { useSettingsStore } from '../../stores/settings-store.js';
import { toast } from '../../stores/ui-store.js';
import { folderDraftErrors, rowErrorsFromFields, suggestName } from './folders-draft.js';

const inDesktop = () => typeof window !== 'undefined' && window.sandbar !== undefined;

export function FoldersCard({ view }: { view: SettingsView }) {
  const saved = view.settings.folders;
  const [draft, setDraft] = useState<FolderSetting[]>(saved);
  const [serverRows, setServerRows] = useState<Record<number, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const healthRow = useHealthStore((s) => s.report?.checks.find((c) => c.id === 'folders'));
  const locked = view.locked.find((l) => l.path === 'folders')?.source ?? null;
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const local = folderDraftErrors(draft);
  const desktop = inDesktop();

  const edit = (next: FolderSetting[]) => {
    setDraft(next);
    setServerRows({});
    setFormError(null);
  };
  const add = async () => {
    try {
      const { path } = await api.call('folders.pick', {});
      if (path) edit([...draft, { name: suggestName(path, draft.map((f) => f.name)), path }]);
    } catch (err) {
      toast('fail', describeError(err));
    }
  };
  const save = async () => {
    setSaving(true);
    try {
      const change = await api.call('settings.update', { patch: { folders: draft } });
      useSettingsStore.getState().settingsChanged(change);
      toast('ok', 'Folders saved: new sandboxes see them now.');
    } catch (err) {
      if (err instanceof ApiCallError && err.fields) {
        const { rows, other } = rowErrorsFromFields(err.fields);
        setServerRows(rows);
        setFormError(other.length > 0 ? other.join('; ') : null);
      } else {
        setFormError(describeError(err));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card group folders-card" aria-labelledby="folders-title">
      <h2 id="folders-title" className="folders-title">Folders</h2>
      <p className="muted small">
        Every run and session sees these at <code>/mnt/&lt;name&gt;</code>: read-only unless writable, never executable. Keys, system folders and Sandbar&apos;s own folder are refused.
      </p>
      {healthRow && healthRow.status !== 'ok' && (
        <div className="banner banner-warn" role="status" data-testid="folders-refused">
          {healthRow.detail}
        </div>
      )}
      {draft.length === 0 ? (
        <p className="muted">No folders: sandboxes see none of your files.</p>
      ) : (
        <ul className="folders-list" aria-label="Folders in the sandbox">
          {draft.map((f, i) => (
            <li key={i} className="folders-row">
              <input
                aria-label={`Name of ${f.path}`}
                value={f.name}
                disabled={!desktop || locked !== null}
                onChange={(e) => edit(draft.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
              />
              <span className="folders-path">
                <code>{f.path}</code> → <code>{folderMountPath(f.name)}</code>
              </span>
              <Switch
                checked={f.writable === true}
                label="Writable"
                disabled={!desktop || locked !== null}
                onChange={(on) => edit(draft.map((x, j) => (j === i ? { name: x.name, path: x.path, ...(on ? { writable: true } : {}) } : x)))}
              />
              {desktop && locked === null && (
                <Button variant="ghost" onClick={() => edit(draft.filter((_, j) => j !== i))} aria-label={`Remove ${f.name}`}>
                  Remove
                </Button>
              )}
              {(local.rows[i] ?? serverRows[i]) && (
                <div className="field-error" role="alert">
                  {local.rows[i] ?? serverRows[i]}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {(formError ?? local.list) && (
        <div className="banner banner-fail" role="alert">
          {formError ?? local.list}
        </div>
      )}
      {locked ? (
        <p className="muted small">Set by {locked}.</p>
      ) : desktop ? (
        <div className="folders-actions">
          <Button onClick={() => void add()}>Add folder…</Button>
          <Button onClick={() => edit(saved)} disabled={!dirty}>
            Discard
          </Button>
          <Button variant="primary" onClick={() => void save()} disabled={!dirty || local.list !== null || Object.keys(local.rows).length > 0} busy={saving}>
            Save folders
          </Button>
        </div>
      ) : (
        <p className="muted small">
          Folders are chosen in the Sandbar desktop app, or listed under <code>folders</code> in <code>{view.file}</code>: a browser cannot change them.
        </p>
      )}
    </section>
  );
}
