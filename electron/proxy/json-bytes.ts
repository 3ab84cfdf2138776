// The size of a value as JSON, without building the JSON: tool calls of many megabytes are measured for
// history on every call, and a throwaway copy of each made host memory grow with every large call.
// Exact for everything but escapes (a quote or a control character in a string costs 1–5 more bytes).
export function jsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value, 'utf8') + 2;
    case 'number':
    case 'boolean':
      return String(value).length;
    case 'bigint':
    case 'undefined':
    case 'function':
    case 'symbol':
      return 0;
  }
  if (value === null) return 4;
  if (Array.isArray(value)) {
    // In an array, a value JSON cannot hold is written as null.
    const items = value.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 4 : jsonBytes(item)));
    return items.reduce((sum, n) => sum + n + 1, 1) + (items.length === 0 ? 1 : 0);
  }
  let sum = 2;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    sum += Buffer.byteLength(key, 'utf8') + 3 + jsonBytes(item) + 1;
  }
  return sum > 2 ? sum - 1 : sum;
}
