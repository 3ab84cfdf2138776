// Runs started from the panel (Re-run): the same path as an MCP run, with the servers prepared and
// proxied, recorded as client `panel`. The panel follows the run on the event stream.
import { AppError } from '../../shared/errors.js';
import type { SandbarCore } from '../app.js';

export async function submitAsPanel(
  core: Pick<SandbarCore, 'engine' | 'servers'>,
  run: { code: string; servers: string[]; timeoutSec: number | null },
): Promise<{ id: string }> {
  const refusal = core.servers.refusal(run.servers);
  if (refusal) throw new AppError('invalid_request', refusal);
  const mcp = await core.servers.prepare(run.servers);
  const handle = core.engine.submit(
    { code: run.code, servers: run.servers, client: { name: 'panel', transport: 'panel' }, context: { mcp }, ...(run.timeoutSec ? { timeoutSec: run.timeoutSec } : {}) },
    { rpc: core.servers.rpcFor(run.servers) },
  );
  return { id: handle.id };
}
