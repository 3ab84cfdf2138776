// npm run test:electron: starts the real desktop app and checks it from outside (see smoke-run.ts). Where
// no Electron binary is installed it says so in one line and exits 0, unless SANDBAR_REQUIRE_ELECTRON is
// set (the GitHub workflow, which installs Electron); on Linux without a display it re-runs under xvfb-run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { locateElectron, planSmoke } from './preconditions.js';

function electronPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

const plan = planSmoke({
  binary: locateElectron({
    packageDir: electronPackageDir(),
    env: process.env,
    readFile: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null),
    exists: existsSync,
  }),
  env: process.env,
  platform: process.platform,
  self: { command: process.execPath, args: [...process.execArgv, ...process.argv.slice(1)] },
  hasXvfbRun: onPath('xvfb-run'),
});

if (plan.action === 'stop') {
  console.log(plan.line);
  process.exit(plan.exitCode);
} else if (plan.action === 'rerun') {
  const result = spawnSync(plan.command, plan.args, { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} else {
  // Loaded only now: Playwright, the MCP SDK and better-sqlite3 are not needed to say "skipped".
  const { runSmoke } = await import('./smoke-run.js');
  process.exit(await runSmoke(plan.electron));
}
