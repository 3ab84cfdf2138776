// What `podman info` / `docker info` said, kept for one-shot commands (`sandbar run`): asking again costs
// 0.1–0.3 s (Podman also queries its helpers and the package manager), more than the run itself. The answer
// is reused only while fresh and only for the same binary (path, size and modification time), so an
// upgrade or a switch of runtime is seen at once; anything unreadable is simply asked again.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
/** Owner-only, like everything else under SANDBAR_HOME. */
const PRIVATE_FILE_MODE = 0o600;
import type { RuntimeInfo } from './runtime-info.js';

export const RUNTIME_FACTS_FILE = 'runtime-facts.json';
/** Long-running surfaces probe afresh at start; one-shot commands trust an answer this recent. */
export const RUNTIME_FACTS_TTL_MS = 60 * 60 * 1000;

export interface RuntimeFactsCache {
  load(located: { path: string }): RuntimeInfo | undefined;
  save(info: RuntimeInfo): void;
}

function binaryKey(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${file}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export function fileFactsCache(home: string, now: () => number = Date.now): RuntimeFactsCache {
  const file = path.join(home, RUNTIME_FACTS_FILE);
  return {
    load(located) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; at?: unknown; info?: RuntimeInfo };
        const fresh = typeof saved.at === 'number' && now() - saved.at >= 0 && now() - saved.at < RUNTIME_FACTS_TTL_MS;
        const key = binaryKey(located.path);
        return fresh && key !== undefined && saved.key === key && saved.info?.path === located.path ? saved.info : undefined;
      } catch {
        return undefined;
      }
    },
    save(info) {
      const key = binaryKey(info.path);
      if (key === undefined) return;
      // Forced overrides are this process's decision, not facts about the runtime.
      const { ociRuntimeOverride: _o, ociRuntimeNote: _n, ...facts } = info;
      try {
        // Whole or not at all: a concurrent reader sees the old answer or the new one.
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify({ key, at: now(), info: facts }), { mode: PRIVATE_FILE_MODE });
        renameSync(temp, file);
      } catch {
        // A cache that cannot be written only costs the next command a probe.
      }
    },
  };
}
