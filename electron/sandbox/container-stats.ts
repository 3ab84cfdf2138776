// Memory in use per container, from `<runtime> stats --no-stream --format json` (podman) or the
// per-line JSON docker prints. Sizes come as "2.171MB / 536.9MB" (podman, decimal) or "3.4MiB / 512MiB".

export interface ContainerMemory {
  name: string;
  memoryBytes: number;
}

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** "2.171MB" → 2171000; null when it is not a size. */
export function parseHumanSize(text: string): number | null {
  const match = /^\s*([\d.]+)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return null;
  const unit = UNITS[(match[2] || 'b').toLowerCase()];
  const value = Number(match[1]);
  return unit === undefined || !Number.isFinite(value) ? null : Math.round(value * unit);
}

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
