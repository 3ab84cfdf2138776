// Memory in use per container, from `<runtime> stats --no-stream --format json` (podman) or the
// per-line JSON docker prints. Sizes come as "2.171MB / 536.9MB" (podman, decimal) or "3.4MiB / 512MiB".

import { parseHumanSize } from '../../../shared/human-size.js';
import type { ContainerMemory } from '../backend.js';


function fromEntry(entry: Record<string, unknown>): ContainerMemory | null {
  const name = String(entry.name ?? entry.Name ?? '').replace(/^\//, '');
  const usage = String(entry.mem_usage ?? entry.MemUsage ?? '').split('/')[0] ?? '';
  const memoryBytes = parseHumanSize(usage);
  return name && memoryBytes !== null ? { name, memoryBytes } : null;
}

export function parseStats(stdout: string): ContainerMemory[] {
  const text = stdout.trim();
  if (!text) return [];
  let entries: unknown[];
  try {
    const parsed: unknown = JSON.parse(text);
    entries = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    // docker: one JSON object per line.
    entries = text.split('\n').flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
  }
  return entries.flatMap((e) => (e && typeof e === 'object' ? [fromEntry(e as Record<string, unknown>)].filter((m) => m !== null) : []));
}
