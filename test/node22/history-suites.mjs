// The packaged app records history through node:sqlite (Electron's Node); plain Node 20 has no node:sqlite,
// so the unit run covers better-sqlite3 only. This runs the history suites again under Node 22 with the
// node:sqlite driver. Node 22 comes from the npm package `node@22` (.ci/run installs it into .cache/node22,
// or point SANDBAR_NODE22 at any Node >= 22.5). Without it: one line and exit 0, except in strict CI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const strict = !['', '0', 'false', undefined].includes(process.env.CI?.trim().toLowerCase());
const candidates = [process.env.SANDBAR_NODE22, path.join(root, '.cache/node22/node_modules/.bin/node')].filter(Boolean);
const node22 = candidates.find((p) => existsSync(p));

if (!node22) {
  const why = 'history on node:sqlite: skipped, no Node 22 (npm install --prefix .cache/node22 node@22, or set SANDBAR_NODE22)';
  console.log(why);
  process.exit(strict ? 1 : 0);
}

const args = [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '-c', 'test/vitest.config.ts', '--project', 'unit', 'test/unit/history'];
// The main run's JSON report is CI's count; this run keeps its own beside it (test/vitest.config.ts).
const env = { ...process.env, SANDBAR_HISTORY_TEST_DRIVER: 'node:sqlite', SANDBAR_TEST_REPORT: 'test-results/vitest-node22.json' };
const result = spawnSync(node22, args, { cwd: root, stdio: 'inherit', env });
process.exit(result.status ?? 1);
