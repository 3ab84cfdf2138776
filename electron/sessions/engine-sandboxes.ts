// The session registry's hands on real sandboxes: the engine's backends pause, resume and sample them, and
// the engine removes them. A backend that cannot pause (its features say so) keeps no sessions; one whose
// isolation tier cannot keep checkpoints (gVisor) says why on `<id>@<n>`.
import type { Engine } from '../sandbox/engine.js';
import { isolationOf } from '../sandbox/sandbox-spec.js';
import type { SessionSandboxes } from './session-registry.js';

export function engineSandboxes(engine: Engine): SessionSandboxes {
  return {
    cannotPause: () => (engine.backend.features.pause ? null : engine.backend.features.label),
    pause: (c) => engine.backendOf(c).pause(c.name),
    resume: (c) => engine.backendOf(c).resume(c.name),
    end: (c) => engine.discard(c),
    memory: (names) => engine.backend.stats(names),
    cancel: (runId) => engine.cancel(runId),
    checkpointsRefused: () => {
      const support = engine.backend.features.checkpoints[isolationOf(engine.currentConfig.ociRuntime)];
      return support === true ? null : support;
    },
  };
}
