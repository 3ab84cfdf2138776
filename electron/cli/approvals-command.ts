// `sandbar approvals [--json]`, `sandbar approve ID [--run|--always]`, `sandbar deny ID`: answer the
// questions a running Sandbar of this home is waiting on, through its control API with the panel token
// (the file is readable only by this user, like the rest of SANDBAR_HOME).
import type { Command } from 'commander';
import { labelledCodeLine, type ApprovalDecision, type PendingApproval } from '../../shared/approvals.js';
import type { Envelope } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { displayJson, displayLine, DISPLAY_LIMITS, escapeInvisible } from '../../shared/display-text.js';
import type { CliContext } from './cli-context.js';

async function callInstance<T>(method: string, args: object): Promise<T> {
  const [{ verifiedInstance }, { loadOrCreateToken }, { sandbarHome }, { closeLoopbackConnections, loopbackRequest }] = await Promise.all([
    import('../instance-file.js'),
    import('../http/token-store.js'),
    import('../settings/paths.js'),
    import('../loopback-http.js'),
  ]);
  const home = sandbarHome(process.env);
  // The panel token goes only to a listener that proved it is the recorded instance (instance-proof.ts).
  const verified = await verifiedInstance(home);
  if (!verified) throw new AppError('runtime_failed', `No Sandbar is running for ${home}: approvals are answered in the instance that asked.`);
  if (!verified.ok) throw new AppError('runtime_failed', verified.reason);
  const instance = verified.instance;
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

/**
 * One question as the terminal shows it. The first line is the full id and server/tool and nothing else
 * (the names are checked at the proxy; the id is Sandbar's own hex), so no text from the sandbox can make
 * one question look like another; everything from the code follows on indented lines of its own, sanitised.
 */
export function describeApproval(a: PendingApproval, now: number): string {
  const left = Math.max(0, Math.round((a.expiresAt - now) / 1000));
  const id = displayLine(a.id, 64);
  const calls = a.calls && a.calls > 1 ? ` · ${a.calls} identical calls wait: the answer covers each` : '';
  return [
    `${id}  ${displayLine(`${a.server}/${a.tool}`, 2 * DISPLAY_LIMITS.name + 1)}`,
    `    run ${displayLine(a.runId.slice(0, 8), 8)} · ${left}s left, then denied${calls}`,
    ...(a.codeLine ? [`    ${labelledCodeLine(a.codeLine)}`] : []),
    `    arguments: ${displayJson(a.args, DISPLAY_LIMITS.cliArgs)}`,
    `    answer: npm run -s sandbar -- approve ${id} [--run | --always], or npm run -s sandbar -- deny ${id}`,
  ].join('\n');
}

export function registerApprovalsCommands(program: Command, ctx: CliContext): void {
  program
    .command('approvals')
    .description('list tool calls from code waiting for your answer in the running Sandbar')
    .option('--json', 'print them as JSON')
    .action(async (opts: { json?: boolean }) => {
      const pending = await callInstance<PendingApproval[]>('approvals.list', {});
      // JSON escapes C0 itself; C1, bidi and invisible characters are escaped too (the same data, nothing obeyed).
      if (opts.json) process.stdout.write(`${escapeInvisible(JSON.stringify(pending, null, 2))}\n`);
      else process.stdout.write(pending.length ? `${pending.map((a) => describeApproval(a, Date.now())).join('\n\n')}\n` : 'Nothing is waiting for an answer.\n');
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
    .description('allow one waiting tool call (see `npm run -s sandbar -- approvals`)')
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
