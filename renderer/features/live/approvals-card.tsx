// The questions Sandbar is holding for the person: which server's tool the code wants to call, with which
// arguments, how long until no answer means no, and the four answers. Nothing here renders the
// arguments as markup: they come from untrusted code and are shown as pretty-printed text.
import type { ApprovalDecision, PendingApproval } from '../../../shared/approvals.js';
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

function pretty(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2);
  return text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text;
}

export function ApprovalsCard() {
  const pending = useApprovalsStore((s) => s.pending);
  const now = useNow(1000, pending.length > 0);
  if (pending.length === 0) return null;
  return (
    <section className="section approvals" aria-labelledby="approvals-title">
      <h2 id="approvals-title">Waiting for your answer ({pending.length})</h2>
      {pending.map((a) => (
        <article key={a.id} className="card approval" aria-label={`${a.server}/${a.tool}`}>
          <header className="approval-head">
            <strong className="mono">
              {a.server}/{a.tool}
            </strong>
            <span className="muted small num">
              run {a.runId.slice(0, 8)} · {Math.max(0, Math.ceil((a.expiresAt - now) / 1000))} s, then denied
            </span>
          </header>
          {a.codeLine && <pre className="approval-code mono">{a.codeLine}</pre>}
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
      ))}
    </section>
  );
}
