// Runs started from the panel (Re-run): the same path as an MCP run (submitWithServers), recorded as
// client `panel`. The panel follows the run on the event stream.
import { AppError } from '../../shared/errors.js';
import { submitWithServers, type ServerCatalog } from '../proxy/submit-with-servers.js';
import type { Engine } from '../sandbox/engine.js';

export async function submitAsPanel(
  deps: { engine: Pick<Engine, 'submit'>; servers: ServerCatalog },
  run: { code: string; servers: string[]; timeoutSec: number | null },
): Promise<{ id: string }> {
  const outcome = await submitWithServers(deps, {
    code: run.code,
    servers: run.servers,
    client: { name: 'panel', transport: 'panel' },
    ...(run.timeoutSec ? { timeoutSec: run.timeoutSec } : {}),
  });
  if (!outcome.ok) throw new AppError('invalid_request', outcome.message);
  return { id: outcome.handle.id };
}
