// Runs the panel History benchmark and prints its Markdown.
//   node --import tsx test/bench/panel-history/run.ts                       (fake-backed harness, 100,000 runs)
//   node --import tsx test/bench/panel-history/run.ts --url 'http://127.0.0.1:7337/#token=…'   (a running sandbar serve)
//   options: --rows N (harness), --latency MS (harness), --samples N, --scroll-ms MS, --quiet
import { parseArgs } from 'node:util';
import { parsePanelLink, runPanelHistoryBench } from './panel-history.bench.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string' },
    rows: { type: 'string' },
    latency: { type: 'string' },
    samples: { type: 'string' },
    'scroll-ms': { type: 'string' },
    quiet: { type: 'boolean' },
  },
});
const link = values.url ? parsePanelLink(values.url) : null;
const token = values.token ?? link?.token;
const result = await runPanelHistoryBench({
  ...(link ? { baseUrl: link.baseUrl } : {}),
  ...(token ? { token } : {}),
  ...(values.rows ? { rows: Number(values.rows) } : {}),
  ...(values.latency ? { latencyMs: Number(values.latency) } : {}),
  ...(values.samples ? { samples: Number(values.samples) } : {}),
  ...(values['scroll-ms'] ? { scrollMs: Number(values['scroll-ms']) } : {}),
  log: values.quiet ? () => {} : (line) => console.error(`  ${line}`),
});
console.log(`\n${result.markdown}\n`);
