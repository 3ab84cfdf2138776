// The floor for any Node command that runs code the way Sandbar does: start Node, spawn the runtime with
// Sandbar's flags, hand the agent its boot line and the code, print the output. No settings, no history,
// no checks. `sandbar run` cannot be faster than this; the CLI bench prints it beside the bare runtime.
// Usage: node test/bench/cold-floor.mjs RUNTIME ARGS_JSON_FILE CODE
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { agentBootModules, buildBootLine } from '../../dist/electron/sandbox/agent/bootstrap.js';

const [runtime, argsFile, code] = process.argv.slice(2);
const child = spawn(runtime, JSON.parse(readFileSync(argsFile, 'utf8')), { stdio: ['pipe', 'pipe', 'inherit'] });
child.stdin.write(buildBootLine({ idleTimeoutSec: 60, modules: agentBootModules() }));
let pending = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
    const frame = JSON.parse(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
    if (frame.type === 'ready') child.stdin.write(`${JSON.stringify({ type: 'start', code, context: {}, rpcLimits: [16, 8 * 1024 * 1024] })}\n`);
    if (frame.type === 'stdout') process.stdout.write(frame.data);
  }
});
child.on('close', (status) => process.exit(status ?? 1));
