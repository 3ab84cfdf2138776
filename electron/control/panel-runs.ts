// Runs started from the panel (Re-run): the same run as the recorded one (code, servers, packages,
// timeout) through the run service, so it meets every refusal an MCP run meets, recorded as client
// `panel`. The panel follows the run on the event stream.
import type { RunService } from '../runs/run-service.js';

export interface PanelRun {
  code: string;
  servers: string[];
  packages: string[];
  timeoutSec: number | null;
}

/** A refusal rejects with its reason (an AppError the router passes to the panel as it is). */
export async function startAsPanel(runs: Pick<RunService, 'start'>, run: PanelRun): Promise<{ id: string }> {
  const ticket = await runs.start(
    { code: run.code, servers: run.servers, packages: run.packages, ...(run.timeoutSec ? { timeoutSec: run.timeoutSec } : {}) },
    { client: { name: 'panel', transport: 'panel' } },
  );
  // The result is followed on the event stream; nobody waits on the promise itself.
  ticket.result.catch(() => {});
  return { id: ticket.id };
}
