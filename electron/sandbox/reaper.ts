// Removes containers left behind by Sandbar processes that died (killed, crashed, power loss). Other
// live instances (the desktop app and a `sandbar stdio` at once) keep theirs.
import type { SandboxBackend, OwnedContainer, Owner } from './backend.js';

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pure: which of the listed containers are orphans. Containers of another host are never touched. */
export function selectOrphans(
  containers: readonly OwnedContainer[],
  self: Owner,
  alive: (pid: number) => boolean = isProcessAlive,
): OwnedContainer[] {
  return containers.filter((c) => {
    if (c.host !== self.host || c.instanceId === self.instanceId) return false;
    return c.pid === null || !alive(c.pid);
  });
}

export async function reapOrphans(backend: Pick<SandboxBackend, 'listOwned' | 'kill'>, self: Owner): Promise<string[]> {
  const orphans = selectOrphans(await backend.listOwned(), self).map((c) => c.name);
  await backend.kill(orphans);
  return orphans;
}
