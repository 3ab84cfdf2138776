// Limits: every container limit as a slider and a box, validated as you type, with the resulting flags;
// the user's folders and the egress rules, each with its own Save.
import { Button, Spinner } from '../../components/button.js';
import { useLiveStore } from '../../stores/live-store.js';
import { useSettingsStore } from '../../stores/settings-store.js';
import type { SettingsView } from '../../../shared/contract.js';
import { FlagsPreview } from './flags-preview.js';
import { EgressCard } from './egress-card.js';
import { FoldersCard } from './folders-card.js';
import { LimitsFields } from './limits-fields.js';
import { useLimitsForm } from './use-limits-form.js';
import './limits.css';

function RefillBanner() {
  // The server says when the pool refills (a spec change drained it); nothing here re-derives that rule.
  const pool = useLiveStore((s) => s.pool);
  if (!pool.refilling) return null;
  return (
    <div className="banner banner-info" role="status">
      <Spinner />
      <span>
        Refilling the warm pool with the new limits: {pool.ready} of {pool.size} ready
        {pool.starting > 0 ? `, ${pool.starting} starting` : ''}. New runs use the new limits already.
      </span>
    </div>
  );
}

function LimitsEditor({ view }: { view: SettingsView }) {
  const form = useLimitsForm(view);
  const count = form.dirty.length;
  return (
    <>
      {form.formError && (
        <div className="banner banner-fail" role="alert">
          {form.formError}
        </div>
      )}
      <div className="limits-grid">
        <div className="limits-form">
          <LimitsFields form={form} images={[view.settings.image, view.defaults.image]} />
          {/* Its own Save (through the desktop's confirmation): folders are not limits. */}
          <FoldersCard key={JSON.stringify(view.settings.folders)} view={view} />
          {/* Its own Save too; keyed so a change made elsewhere (another panel, the file) replaces the draft. */}
          <EgressCard key={JSON.stringify(view.settings.egress)} view={view} />
        </div>
        <aside className="limits-aside">
          <FlagsPreview draftLimits={form.validLimits} currentLimits={view.settings.limits} />
          <p className="muted small file-note">
            Saved in <code>{view.file}</code>
          </p>
        </aside>
      </div>
      <div className="apply-bar" role="region" aria-label="Apply changes">
        <span className="apply-status" aria-live="polite">
          {count === 0 ? 'No unsaved changes' : count === 1 ? '1 unsaved change' : `${count} unsaved changes`}
          {!form.valid && count > 0 ? ' · fix the highlighted fields' : ''}
        </span>
        <Button variant="ghost" onClick={form.resetToDefaults}>
          Reset to defaults
        </Button>
        <Button onClick={form.discard} disabled={count === 0}>
          Discard
        </Button>
        <Button variant="primary" onClick={() => void form.apply()} disabled={count === 0 || !form.valid} busy={form.applying}>
          Apply
        </Button>
      </div>
    </>
  );
}

export function LimitsView() {
  const view = useSettingsStore((s) => s.view);
  return (
    <section className="view" aria-labelledby="limits-title">
      <header className="view-head">
        <div>
          <h1 id="limits-title" tabIndex={-1}>
            Limits
          </h1>
          <p className="view-sub">What every run may use. Changes apply without a restart.</p>
        </div>
      </header>
      <RefillBanner />
      {view ? <LimitsEditor view={view} /> : <p className="muted">Loading settings…</p>}
    </section>
  );
}
