// The judge of the `folders` setting: which of the user's folders a sandbox may see, and the rule that
// refuses the others. Symlinks in a path are resolved before judging (a link named ~/data pointing at
// ~/.ssh is ~/.ssh), and a folder is refused when it is, contains or lies inside a protected place: what
// it would hand a sandbox is everything under it. The composer mounts only what this accepts.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { folderMountPath, UNMOUNTABLE_CHARS_RE, type FolderMount, type FolderRefusal, type FolderSetting } from '../../shared/folders.js';

export interface FolderJudgeContext {
  /** The user's home folder. */
  home: string;
  /** Sandbar's own folder (settings, token, history, package layers). */
  sandbarHome: string;
  /** Sandbar's own program folder (its code and seccomp profile); absent in tests that judge paths alone. */
  appDir?: string;
  /** DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR: where runtime sockets may be. */
  env: NodeJS.ProcessEnv;
  /** Injected by tests; the real file system otherwise. */
  fs?: { realpath(p: string): string; isDirectory(p: string): boolean };
}

const realFs = {
  realpath: (p: string) => realpathSync.native(p),
  isDirectory: (p: string) => statSync(p).isDirectory(),
};

/** Keys, credentials and the runtime's own configuration: never in a sandbox. */
export const SECRET_HOME_DIRS = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', '.config'] as const;

export const SYSTEM_DIRS = ['/etc', '/proc', '/sys', '/dev', '/run', '/var/run'] as const;

/** Where Podman's and Docker's API sockets usually are; a folder near one would hand a sandbox the runtime. */
export function runtimeSocketPaths(home: string, env: NodeJS.ProcessEnv): string[] {
  const sockets = [
    '/var/run/docker.sock',
    '/run/docker.sock',
    '/run/podman/podman.sock',
    '/run/containerd/containerd.sock',
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.colima', 'default', 'docker.sock'),
    path.join(home, '.rd', 'docker.sock'),
    path.join(home, '.orbstack', 'run', 'docker.sock'),
    path.join(home, '.local', 'share', 'containers', 'podman', 'machine', 'podman.sock'),
  ];
  if (env.XDG_RUNTIME_DIR) sockets.push(path.join(env.XDG_RUNTIME_DIR, 'podman', 'podman.sock'), path.join(env.XDG_RUNTIME_DIR, 'docker.sock'));
  for (const value of [env.DOCKER_HOST, env.CONTAINER_HOST]) {
    if (value?.startsWith('unix://')) sockets.push(value.slice('unix://'.length));
  }
  return sockets.filter((s) => path.isAbsolute(s));
}

const within = (child: string, parent: string) => child === parent || parent === '/' || child.startsWith(`${parent}/`);

/** How `folder` meets a protected place: `is`, `lies inside`, `contains`, or null. */
function relation(folder: string, guarded: string): string | null {
  if (folder === guarded) return 'is';
  if (within(folder, guarded)) return 'lies inside';
  if (within(guarded, folder)) return 'contains';
  return null;
}

interface Guarded {
  /** As the person knows it (`~/.ssh`, `/etc`). */
  shown: string;
  /** Resolved where it exists, as written where it does not. */
  resolved: string[];
  why: string;
}

export class FolderJudge {
  readonly #ctx: FolderJudgeContext;
  readonly #fs: NonNullable<FolderJudgeContext['fs']>;

  constructor(ctx: FolderJudgeContext) {
    this.#ctx = ctx;
    this.#fs = ctx.fs ?? realFs;
  }

  #resolved(p: string): string[] {
    const literal = path.resolve(p);
    try {
      const real = this.#fs.realpath(literal);
      return real === literal ? [literal] : [literal, real];
    } catch {
      return [literal];
    }
  }

  #guarded(): Guarded[] {
    const { home, sandbarHome, env } = this.#ctx;
    const tilde = (p: string) => (within(p, home) && p !== home ? `~/${path.relative(home, p)}` : p);
    return [
      { shown: `Sandbar's own folder (SANDBAR_HOME, ${sandbarHome})`, resolved: this.#resolved(sandbarHome), why: 'it holds the settings, the token and the history' },
      ...(this.#ctx.appDir
        ? [{ shown: `Sandbar's program folder (${this.#ctx.appDir})`, resolved: this.#resolved(this.#ctx.appDir), why: 'a sandbox could change the code or the seccomp profile Sandbar runs with' }]
        : []),
      ...SECRET_HOME_DIRS.map((d) => ({ shown: `~/${d}`, resolved: this.#resolved(path.join(home, d)), why: 'it holds keys, credentials or configuration' })),
      ...SYSTEM_DIRS.map((d) => ({ shown: d, resolved: this.#resolved(d), why: 'it belongs to the system' })),
      ...runtimeSocketPaths(home, env).map((s) => {
        const dir = path.dirname(s);
        return { shown: `${tilde(dir)} (the folder of the container runtime socket ${tilde(s)})`, resolved: this.#resolved(dir), why: 'the socket controls the container runtime' };
      }),
    ];
  }

  /** The folder as a mount, or the rule that refuses it. */
  judge(folder: FolderSetting): { mount: FolderMount } | { refusal: FolderRefusal } {
    const refuse = (reason: string) => ({ refusal: { name: folder.name, path: folder.path, reason } });
    if (!path.isAbsolute(folder.path)) return refuse('is not an absolute path');
    let real: string;
    try {
      real = this.#fs.realpath(folder.path);
    } catch {
      return refuse('does not exist');
    }
    let dir: boolean;
    try {
      dir = this.#fs.isDirectory(real);
    } catch {
      return refuse('does not exist');
    }
    if (!dir) return refuse('is not a directory');
    const via = real === path.resolve(folder.path) ? '' : ` (it resolves to ${real})`;
    if (UNMOUNTABLE_CHARS_RE.test(real)) return refuse(`resolves to a path with a comma, colon, double quote or control character${via}`);
    if (real === '/') return refuse(`is the root of the file system (/)${via}`);
    if (this.#resolved(this.#ctx.home).includes(real)) return refuse(`is your home folder itself${via}; choose a folder inside it`);
    for (const g of this.#guarded()) {
      for (const r of g.resolved) {
        const how = relation(real, r);
        if (how) return refuse(`${how} ${g.shown}${via}: ${g.why}`);
      }
    }
    return { mount: { name: folder.name, source: real, target: folderMountPath(folder.name), writable: folder.writable === true } };
  }

  /** Every folder judged; one that overlaps a folder accepted before it is refused (a writable one could swap the other for a link). */
  judgeAll(folders: readonly FolderSetting[]): { mounts: FolderMount[]; refused: FolderRefusal[] } {
    const mounts: FolderMount[] = [];
    const refused: FolderRefusal[] = [];
    for (const folder of folders) {
      const verdict = this.judge(folder);
      if ('refusal' in verdict) {
        refused.push(verdict.refusal);
        continue;
      }
      const clash = mounts.find((m) => relation(verdict.mount.source, m.source));
      if (clash) refused.push({ name: folder.name, path: folder.path, reason: `${relation(verdict.mount.source, clash.source)} the folder ${clash.name} (${clash.source}): folders may not overlap` });
      else mounts.push(verdict.mount);
    }
    return { mounts, refused };
  }
}
