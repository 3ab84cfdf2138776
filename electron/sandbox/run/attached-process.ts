// A long-lived process whose stdio is the agent's frame channel: a CLI client attached with `run -i`, or a
// Kubernetes attach stream. Every backend hands the run one of these.
import type { Readable, Writable } from 'node:stream';

export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
  spawnError?: string;
}

/** A long-lived child with piped stdio (a container attached with `run -i`). */
export interface AttachedProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ProcessExit>;
  kill(signal?: NodeJS.Signals): void;
}
