// Which caller made each run, so a run's artifacts (`sandbar://runs/<id>/…`) are served only to it: another
// client that learns or guesses a run id gets the same "unknown artifact" as for a run that never was. One
// per instance (every HTTP session and both revisions share it), in memory: after a restart the runs
// before it are in the panel's History, not on MCP. The panel reads artifacts through the control API.

/** At most this many runs are remembered; the oldest are forgotten first (their artifacts stay in History). */
export const MAX_OWNED_RUNS = 10_000;

export class RunOwners {
  private readonly owners = new Map<string, string>();

  constructor(private readonly max = MAX_OWNED_RUNS) {}

  /** `credential` (caller.ts) made `runId`. */
  record(runId: string, credential: string): void {
    this.owners.delete(runId);
    this.owners.set(runId, credential);
    while (this.owners.size > this.max) this.owners.delete(this.owners.keys().next().value!);
  }

  /** True only for the caller that made the run; an unknown run belongs to no one. */
  owns(runId: string, credential: string): boolean {
    return this.owners.get(runId) === credential;
  }
}
