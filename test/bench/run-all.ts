// `npm run bench`: every benchmark, printed as Markdown for docs/PERFORMANCE.md.
// BENCH=engine,cli,burst,mcp,plot,proxy,history,control,panel-history,panel-live,packages,sessions,checkpoints,floods,egress,fanout picks some of them.
import { benchBurst } from './burst.bench.js';
import { benchCli } from './cli.bench.js';
import { benchControl } from './control.bench.js';
import { benchEngine } from './engine.bench.js';
import { benchFanout } from './fanout.bench.js';
import { benchFloods } from './floods.bench.js';
import { benchHistory } from './history.bench.js';
import { benchMcp } from './mcp.bench.js';
import { benchPanelHistory } from './panel-history.bench.js';
import { benchPanelLive } from './panel-live.bench.js';
import { benchPlot } from './plot.bench.js';
import { benchPackages } from './packages.bench.js';
import { benchProxy } from './proxy.bench.js';
import { benchSessions } from './sessions.bench.js';
import { benchCheckpoints } from './checkpoints.bench.js';
import { benchEgress } from './egress.bench.js';

const all: Record<string, () => Promise<string>> = {
  engine: benchEngine,
  cli: benchCli,
  burst: benchBurst,
  mcp: benchMcp,
  plot: benchPlot,
  proxy: benchProxy,
  history: benchHistory,
  control: benchControl,
  'panel-history': benchPanelHistory,
  'panel-live': benchPanelLive,
  packages: benchPackages,
  sessions: benchSessions,
  checkpoints: benchCheckpoints,
  floods: benchFloods,
  egress: benchEgress,
  fanout: benchFanout,
};
const chosen = process.env.BENCH ? process.env.BENCH.split(',') : Object.keys(all);
const sections: string[] = [];
for (const name of chosen) {
  const bench = all[name];
  if (!bench) throw new Error(`unknown benchmark ${name}; choose from ${Object.keys(all).join(', ')}`);
  sections.push(await bench());
}
console.log(`\n## Run of ${new Date().toISOString()}\n\n${sections.join('\n\n')}\n`);
