// Sizes as runtimes print them: "2.171MB" (decimal, Podman), "3.4MiB" (binary, Docker and Kubernetes).

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
