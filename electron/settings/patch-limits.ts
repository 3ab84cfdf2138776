// Bounds on a settings patch, checked before anything else looks at it: a patch nested thousands deep or
// megabytes large is refused whole, so it can never reach the file (where it would stop the next start).
export const MAX_PATCH_DEPTH = 32;
export const MAX_PATCH_BYTES = 256 * 1024;

/** Why the patch is refused, or null. Iterative, so a hostile depth cannot overflow the stack here. */
export function patchBoundsProblem(patch: unknown): string | null {
  const stack: [unknown, number][] = [[patch, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_PATCH_DEPTH) return `the update is nested more than ${MAX_PATCH_DEPTH} levels deep`;
    for (const value of Object.values(node)) stack.push([value, depth + 1]);
  }
  // Depth is bounded now, so serialising cannot recurse far.
  const bytes = Buffer.byteLength(JSON.stringify(patch) ?? '', 'utf8');
  if (bytes > MAX_PATCH_BYTES) return `the update is ${bytes} bytes; at most ${MAX_PATCH_BYTES} (256 KiB) are accepted`;
  return null;
}
