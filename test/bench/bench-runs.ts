// The run service over a benchmark's engine, wired as core.ts wires it (no package index, no questions).
import type { Engine } from '../../electron/sandbox/engine.js';
import type { ServerCatalog, SessionAdmission } from '../../electron/runs/ports.js';
import { RunService } from '../../electron/runs/run-service.js';
import type { Settings } from '../../shared/settings.js';

export function benchRuns(engine: Engine, settings: () => Settings, servers: ServerCatalog, sessions?: SessionAdmission): RunService {
  return new RunService({
    engine,
    servers,
    packages: { prepare: () => Promise.reject(new Error('no package index in this benchmark')) },
    ...(sessions ? { sessions } : {}),
    approvals: { list: () => [] },
    maxCodeBytes: () => settings().maxCodeBytes,
  });
}
