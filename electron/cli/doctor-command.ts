// `sandbar doctor [--json] [--all-runtimes]`: the health report. Exit 0 only when code can run safely.
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
    .option('--all-runtimes', 'also probe every installed runtime and isolation tier (podman, docker, gVisor) and list each limit per tier')
    .action(async (opts: { json?: boolean; allRuntimes?: boolean }) => {
      const core = await ctx.createCore({ overrides: { poolSize: 0 } });
      await core.history.start();
      const report = await core.health({ probe: true });
      const { formatTiers, probeEveryTier } = await import('../health/runtime-tiers.js');
      const tiers = opts.allRuntimes
        ? await probeEveryTier({ env: process.env, platform: process.platform, owner: core.engine.owner, spec: core.engine.spec() })
        : undefined;
      const text = formatHealth(report) + (tiers ? `\nEvery runtime here (✓ enforced, ! documented exception, ✗ failed):\n${formatTiers(tiers)}\n` : '');
      process.stdout.write(opts.json ? `${JSON.stringify(tiers ? { ...report, tiers } : report, null, 2)}\n` : text);
      await core.dispose();
      ctx.setExitCode(report.ok ? 0 : 1);
    });
}
