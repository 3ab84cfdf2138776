// `sandbar image [status|pull] [NAME]`: is the sandbox image here, and fetch it with progress if not.
// Runs never pull as a side effect; this (or the panel's Pull button) is the one way an image arrives.
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

export function registerImageCommand(program: Command, ctx: CliContext): void {
  const image = program.command('image').description('show or pull the sandbox image (default: the configured one)');
  image
    .command('status', { isDefault: true })
    .argument('[name]', 'image name; defaults to the configured image')
    .option('--json', 'print {"image", "present"} as JSON')
    .description('say whether the image is present (exit 0) or missing (exit 1)')
    .action(async (name: string | undefined, opts: { json?: boolean }) => {
      const core = await ctx.createCore({ overrides: { poolSize: 0 } });
      const wanted = name ?? core.settings.image;
      const present = await core.runtime.imageExists(wanted);
      process.stdout.write(opts.json ? `${JSON.stringify({ image: wanted, present })}\n` : `${wanted}: ${present ? 'present' : 'missing (run `npm run -s sandbar -- image pull`)'}\n`);
      ctx.setExitCode(present ? 0 : 1);
    });
  image
    .command('pull')
    .argument('[name]', 'image name; defaults to the configured image')
    .description('pull the image, printing the runtime\'s progress')
    .action(async (name: string | undefined) => {
      const core = await ctx.createCore({ overrides: { poolSize: 0 } });
      const wanted = name ?? core.settings.image;
      const { pullFraction } = await import('../control/image-puller.js');
      process.stderr.write(`pulling ${wanted}\n`);
      await core.runtime.pullImage(wanted, (line) => {
        const fraction = pullFraction(line);
        process.stderr.write(`${fraction === null ? '' : `${Math.round(fraction * 100)}% `}${line}\n`);
      });
      process.stdout.write(`${wanted} is ready\n`);
    });
}
