// CI is strict: a missing runtime, image or browser fails the run instead of skipping. Any CI value counts
// except empty, `0` and `false` (runners set `true`, `1` or their own name).
export function isStrictCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
