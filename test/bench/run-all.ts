// `npm run bench`: every benchmark, printed as Markdown for docs/PERFORMANCE.md.
import { benchEngine } from './engine.bench.js';

const sections = [await benchEngine()];
console.log(`\n## Run of ${new Date().toISOString()}\n\n${sections.join('\n\n')}\n`);
