// The questions Sandbar is holding for the person: which server's tool the code wants to call, with which
// arguments, how long until no answer means no, and the four answers. Nothing here renders the
// arguments as markup: they come from untrusted code and are shown as pretty-printed text, through the
// shared sanitiser (escapes, bidi and invisible characters written out, never obeyed).
import { CODE_LINE_LABEL, type ApprovalDecision, type PendingApproval } from '../../../shared/approvals.js';
import { displayJson, displayLine, DISPLAY_LIMITS } from '../../../shared/display-text.js';
import { api, describeError } from '../../api/index.js';
import { Button } from '../../components/button.js';
import { useNow } from '../../lib/use-now.js';
import { useApprovalsStore } from '../../stores/approvals-store.js';
import { toast } from '../../stores/ui-store.js';

async function answer(approval: PendingApproval, decision: ApprovalDecision): Promise<void> {
  try {
    const { decided } = await api.call('approvals.decide', { id: approval.id, decision });
    if (decided) useApprovalsStore.getState().answered(approval.id);
    else toast('info', 'That question was already answered or has expired.');
  } catch (err) {
    toast('fail', `Could not answer: ${describeError(err)}`);
  }
}

const pretty = (args: Record<string, unknown>) => displayJson(args, DISPLAY_LIMITS.panelArgs, 2);

export function ApprovalsCard() {
  const pending = useApprovalsStore((s) => s.pending);
  const now = useNow(1000, pending.length > 0);
  if (pending.length === 0) return null;
  return (
    <section className="section approvals" aria-labelledby="approvals-title">
      <h2 id="approvals-title">Waiting for your answer ({pending.length})</h2>
      {pending.map((a) => {
        const name = displayLine(`${a.server}/${a.tool}`, 2 * DISPLAY_LIMITS.name + 1);
        return (
          <article key={a.id} className="card approval" aria-label={name}>
            <header className="approval-head">
              <strong className="mono">{name}</strong>
              <span className="muted small num">
                run {displayLine(a.runId.slice(0, 8), 8)} · {Math.max(0, Math.ceil((a.expiresAt - now) / 1000))} s, then denied
              </span>
            </header>
            {a.calls && a.calls > 1 ? <p className="small approval-calls">{a.calls} identical calls wait: the answer covers each</p> : null}
            {a.codeLine && (
              <figure className="approval-line">
                <figcaption className="muted small">Code line, {CODE_LINE_LABEL}</figcaption>
                <pre className="approval-code mono">{displayLine(a.codeLine, DISPLAY_LIMITS.codeLine)}</pre>
              </figure>
            )}
            <pre className="approval-args mono">{pretty(a.args)}</pre>
            <div className="approval-actions">
              <Button size="sm" variant="primary" onClick={() => void answer(a, 'allow-once')}>
                Allow once
              </Button>
              <Button size="sm" onClick={() => void answer(a, 'allow-run')}>
                Allow for this run
              </Button>
              <Button size="sm" onClick={() => void answer(a, 'allow-always')}>
                Always allow this tool
              </Button>
              <Button size="sm" variant="danger" onClick={() => void answer(a, 'deny')}>
                Deny
              </Button>
            </div>
          </article>
        );
      })}
    </section>
  );
}
