// `sandbar approvals [--json]`, `sandbar approve ID [--run|--always]`, `sandbar deny ID`: answer the
// questions a running Sandbar of this home is waiting on, through its control API with the panel token
// (the file is readable only by this user, like the rest of SANDBAR_HOME).
import type { Command } from 'commander';
import type { ApprovalDecision, PendingApproval } from '../../shared/approvals.js';
import type { Envelope } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { stripControlChars } from '../../shared/control-chars.js';
import type { CliContext } from './cli-context.js';

async function callInstance<T>(method: string, args: object): Promise<T> {
  const [{ readInstance }, { loadOrCreateToken }, { sandbarHome }, { closeLoopbackConnections, loopbackRequest }] = await Promise.all([
    import('../instance-file.js'),
    import('../http/token-store.js'),
    import('../settings/paths.js'),
    import('../loopback-http.js'),
  ]);
  const home = sandbarHome(process.env);
  const instance = readInstance(home);
  if (!instance) throw new AppError('runtime_failed', `No Sandbar is running for ${home}: approvals are answered in the instance that asked.`);
  const url = new URL(`/api/call/${method}`, instance.url).toString();
  try {
    const res = await loopbackRequest(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${loadOrCreateToken(home, 'panel').token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
      timeoutMs: 5000,
    });
    const envelope = JSON.parse(res.body) as Envelope<T>;
    if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message);
    return envelope.value;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('runtime_failed', `The running Sandbar did not answer: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    closeLoopbackConnections();
  }
}

function describe(a: PendingApproval, now: number): string {
  const args = stripControlChars(JSON.stringify(a.args));
  const left = Math.max(0, Math.round((a.expiresAt - now) / 1000));
  const line = a.codeLine ? `\n    ${stripControlChars(a.codeLine)}` : '';
  return `${a.id}  ${a.server}/${a.tool}  run ${a.runId.slice(0, 8)}  ${left}s left${line}\n    ${args.length > 300 ? `${args.slice(0, 300)}…` : args}`;
}

export function registerApprovalsCommands(program: Command, ctx: CliContext): void {
  program
    .command('approvals')
    .description('list tool calls from code waiting for your answer in the running Sandbar')
    .option('--json', 'print them as JSON')
    .action(async (opts: { json?: boolean }) => {
      const pending = await callInstance<PendingApproval[]>('approvals.list', {});
      if (opts.json) process.stdout.write(`${JSON.stringify(pending, null, 2)}\n`);
      else process.stdout.write(pending.length ? `${pending.map((a) => describe(a, Date.now())).join('\n')}\n` : 'Nothing is waiting for an answer.\n');
      ctx.setExitCode(0);
    });

  const decide = async (id: string, decision: ApprovalDecision) => {
    const { decided } = await callInstance<{ decided: boolean }>('approvals.decide', { id, decision, via: 'cli' });
    if (!decided) throw new AppError('invalid_request', `No question ${id} is waiting (answered already, or it expired).`);
    process.stdout.write(`${decision === 'deny' ? 'Denied' : 'Allowed'} ${id}${decision === 'allow-run' ? ' for the rest of its run' : decision === 'allow-always' ? ' from now on (policy written)' : ''}.\n`);
    ctx.setExitCode(0);
  };
  program
    .command('approve')
    .description('allow one waiting tool call (see `sandbar approvals`)')
    .argument('<id>', 'the question id')
    .option('--run', 'also allow the same call again in this run')
    .option('--always', 'allow this tool from now on (writes a policy)')
    .action((id: string, opts: { run?: boolean; always?: boolean }) => decide(id, opts.always ? 'allow-always' : opts.run ? 'allow-run' : 'allow-once'));
  program
    .command('deny')
    .description('deny one waiting tool call; the code gets ToolCallDenied')
    .argument('<id>', 'the question id')
    .action((id: string) => decide(id, 'deny'));
}
