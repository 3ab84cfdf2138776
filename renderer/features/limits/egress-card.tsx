// Limits › Egress: the hosts sandboxed code may reach through this computer's proxy (`egress.allow`) and
// those it never may (`egress.deny`, which wins). Each rule shows, as it is typed, what it matches or the
// shared parser's reason it is not a rule; the lists have their own Save. Secrets and the upstream CA file
// are host-affecting: shown here by name only (never a value) and changed in the settings file or the
// desktop's confirmation, never from this form.
import { useState } from 'react';
import type { SettingsView } from '../../../shared/contract.js';
import { ApiCallError, api, describeError } from '../../api/index.js';
import { Button } from '../../components/button.js';
import { useSettingsStore } from '../../stores/settings-store.js';
import { toast } from '../../stores/ui-store.js';
import { cleanDraft, egressDraftErrors, egressErrorsFromFields, ruleFeedback, type DraftErrors, type EgressDraft, type RuleList } from './egress-draft.js';

const LISTS: { list: RuleList; title: string; hint: string; add: string }[] = [
  { list: 'allow', title: 'Allowed hosts', hint: 'Empty: sandboxes have no network at all (the default).', add: 'Add allowed host' },
  { list: 'deny', title: 'Denied hosts', hint: 'Never reached, even when an allow rule matches.', add: 'Add denied host' },
];

function RuleRow({ list, index, value, error, disabled, onChange, onRemove }: { list: RuleList; index: number; value: string; error: string | undefined; disabled: boolean; onChange(v: string): void; onRemove(): void }) {
  const feedback = ruleFeedback(value);
  const shown = error ?? ('error' in feedback ? feedback.error : undefined);
  const id = `egress-${list}-${index}`;
  return (
    <li className="egress-rule">
      <div className="egress-rule-row">
        <input
          id={id}
          className="input mono"
          aria-label={`${list === 'allow' ? 'Allowed' : 'Denied'} host ${index + 1}`}
          aria-invalid={shown !== undefined}
          aria-describedby={`${id}-note`}
          spellCheck={false}
          autoComplete="off"
          placeholder="api.example.com:443"
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
        {!disabled && (
          <Button variant="ghost" onClick={onRemove} aria-label={`Remove ${value.trim() || `rule ${index + 1}`}`}>
            Remove
          </Button>
        )}
      </div>
      {shown !== undefined ? (
        <div id={`${id}-note`} className="field-error" role="alert">
          {shown}
        </div>
      ) : (
        <div id={`${id}-note`} className="muted small egress-preview">
          Matches {'preview' in feedback ? feedback.preview : ''}
        </div>
      )}
    </li>
  );
}

function HostAffecting({ view }: { view: SettingsView }) {
  const secrets = Object.entries(view.settings.secrets);
  return (
    <div className="egress-host-affecting">
      <h3 className="egress-subtitle">Secrets and certificates</h3>
      {secrets.length === 0 ? (
        <p className="muted small">No secrets: requests leave with only what the code puts in them.</p>
      ) : (
        <ul className="egress-secrets" aria-label="Secrets">
          {secrets.map(([name, s]) => (
            <li key={name}>
              <code>{name}</code> <span className="muted small">sent in the {s.header.slice(0, s.header.indexOf(':'))} header to {s.hosts.join(', ')}; the sandbox sees a placeholder</span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">
        Upstream certificates: {view.settings.egressCaFile ? <code>{view.settings.egressCaFile}</code> : 'the system CAs only'}.
      </p>
      <p className="muted small">
        Secrets and <code>egressCaFile</code> decide which credential leaves this computer and which servers it trusts: they are changed in <code>{view.file}</code>, never from this
        panel. Values are never shown.
      </p>
    </div>
  );
}

export function EgressCard({ view }: { view: SettingsView }) {
  const saved: EgressDraft = { allow: view.settings.egress.allow, deny: view.settings.egress.deny };
  const [draft, setDraft] = useState<EgressDraft>(saved);
  const [server, setServer] = useState<DraftErrors>({ rows: {}, lists: [] });
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const locked = view.locked.find((l) => l.path === 'egress' || l.path.startsWith('egress.'))?.source ?? null;
  const local = egressDraftErrors(draft);
  const dirty = JSON.stringify(cleanDraft(draft)) !== JSON.stringify(saved);
  const valid = local.lists.length === 0 && Object.keys(local.rows).length === 0;

  const edit = (next: EgressDraft) => {
    setDraft(next);
    setServer({ rows: {}, lists: [] });
    setFormError(null);
  };
  const setRule = (list: RuleList, index: number, value: string) => edit({ ...draft, [list]: draft[list].map((r, i) => (i === index ? value : r)) });
  const save = async () => {
    setSaving(true);
    try {
      const change = await api.call('settings.update', { patch: { egress: cleanDraft(draft) } });
      useSettingsStore.getState().settingsChanged(change);
      toast('ok', 'Egress rules saved: new runs use them now.');
    } catch (err) {
      if (err instanceof ApiCallError && err.fields) {
        const found = egressErrorsFromFields(err.fields);
        setServer(found);
        setFormError(found.lists.length > 0 ? found.lists.join('; ') : null);
      } else {
        setFormError(describeError(err));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card group egress-card" aria-labelledby="egress-title">
      <h2 id="egress-title" className="folders-title">
        Egress
      </h2>
      <p className="muted small">
        Sandboxes keep no network of their own; requests to these hosts go through this computer, which checks each one and records it in the run&apos;s history.
        A rule is a host, host:port, *.domain[:port], an IP address or a CIDR.
      </p>
      {draft.allow.length > 0 && (
        <div className="banner banner-warn" role="status">
          Code in every sandbox can send data to the allowed hosts.
        </div>
      )}
      {LISTS.map(({ list, title, hint, add }) => (
        <div key={list} className="egress-rules">
          <h3 className="egress-subtitle">{title}</h3>
          <p className="muted small">{hint}</p>
          {draft[list].length > 0 && (
            <ul className="egress-rule-list" aria-label={title}>
              {draft[list].map((value, i) => (
                <RuleRow
                  key={i}
                  list={list}
                  index={i}
                  value={value}
                  error={server.rows[`${list}.${i}`] ?? local.rows[`${list}.${i}`]}
                  disabled={locked !== null}
                  onChange={(v) => setRule(list, i, v)}
                  onRemove={() => edit({ ...draft, [list]: draft[list].filter((_, j) => j !== i) })}
                />
              ))}
            </ul>
          )}
          {locked === null && <Button onClick={() => edit({ ...draft, [list]: [...draft[list], ''] })}>{add}</Button>}
        </div>
      ))}
      {(formError ?? local.lists[0]) && (
        <div className="banner banner-fail" role="alert">
          {formError ?? local.lists.join('; ')}
        </div>
      )}
      {locked ? (
        <p className="muted small">Set by {locked}.</p>
      ) : (
        <div className="folders-actions">
          <Button onClick={() => edit(saved)} disabled={!dirty}>
            Discard rule changes
          </Button>
          <Button variant="primary" onClick={() => void save()} disabled={!dirty || !valid} busy={saving}>
            Save egress rules
          </Button>
        </div>
      )}
      <HostAffecting view={view} />
    </section>
  );
}
