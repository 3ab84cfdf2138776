// `sandbar doctor [--json]`: the health report. Exit 0 only when code can run safely.
import type { Command } from 'commander';
import type { HealthReport } from '../../shared/health.js';
import type { CliContext } from './cli-context.js';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

export function formatHealth(report: HealthReport): string {
  const lines = report.checks.map((c) => {
    const hint = c.hint ? `\n      fix: ${c.hint}` : '';
    return `  ${MARK[c.status]} ${c.label}: ${c.detail}${hint}`;
  });
  const caps = report.capabilities;
  if (caps) {
    const state = { enforced: '✓', exception: '!', failed: '✗', unknown: '?' } as const;
    const tier = caps.isolation === 'runsc' ? ' with gVisor' : '';
    const cells = Object.entries(caps.limits).map(([key, limit]) => `${key} ${state[limit.state]}`);
    lines.push(`\n  Limits on ${caps.backend}${tier}: ${cells.join(', ')}  (✓ enforced, ! not on this backend, ✗ failed)`);
  }
  const verdict = report.ok ? 'Sandbar can run code safely.' : 'Sandbar cannot run code safely yet; see the fixes above.';
  return `${lines.join('\n')}\n\n${verdict}\n`;
}

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check the container runtime and prove every sandbox limit is enforced')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { json?: boolean }) => {
      const core = ctx.createCore({ overrides: { poolSize: 0 } });
      await core.history.start();
      const report = await core.health({ probe: true });
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatHealth(report));
      await core.dispose();
      ctx.setExitCode(report.ok ? 0 : 1);
    });
}
