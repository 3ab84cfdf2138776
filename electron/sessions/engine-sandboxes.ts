// The session registry's hands on real sandboxes: the engine's backends pause, resume and sample them, and
// the engine removes them. Kubernetes cannot pause a pod (capabilities.ts: pauseResume), so it has no sessions.
import type { Engine } from '../sandbox/engine.js';
import type { SessionSandboxes } from './session-registry.js';

export function engineSandboxes(engine: Engine): SessionSandboxes {
  return {
    cannotPause: () => (engine.backend.kind === 'kubernetes' ? 'Kubernetes' : null),
    pause: (c) => engine.backendOf(c).pause(c.name),
    resume: (c) => engine.backendOf(c).resume(c.name),
    end: (c) => engine.discard(c),
    memory: (names) => engine.backend.stats(names),
    cancel: (runId) => engine.cancel(runId),
  };
}
