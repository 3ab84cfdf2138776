// The judge of the `folders` setting on a real file system: every refused place refused with its rule
// (symlinks resolved first), accepted folders resolved, overlaps refused, and a refused folder never mounted.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderJudgeFor } from '../../../electron/settings/folder-context.js';
import { FolderJudge } from '../../../electron/settings/folder-judge.js';
import { packageRoot } from '../../../electron/package-info.js';
import { fitFolders } from '../../../electron/sandbox/folder-fit.js';
import { foldersCheck } from '../../../electron/health/app-checks.js';
import { cliFeatures } from '../../../electron/sandbox/cli/cli-health.js';
import { KUBERNETES_FEATURES } from '../../../electron/sandbox/kubernetes/kubernetes-health.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-judge-')));
const home = path.join(root, 'home');
const sandbarHome = path.join(home, '.local', 'share', 'sandbar');
for (const d of ['Downloads/csv', '.ssh/keys', '.gnupg', '.aws', '.kube', '.docker', '.config', '.local/share/sandbar/packages', 'sock/run']) mkdirSync(path.join(home, d), { recursive: true });
writeFileSync(path.join(home, 'notes.txt'), 'x');
symlinkSync(path.join(home, '.ssh'), path.join(home, 'innocent'));
symlinkSync(home, path.join(root, 'home-link'));
symlinkSync(path.join(home, 'Downloads'), path.join(root, 'dl-link'));
const env = { DOCKER_HOST: `unix://${path.join(home, 'sock', 'run', 'docker.sock')}` };
const judge = new FolderJudge({ home, sandbarHome, env });

const verdict = (p: string, writable = false) => judge.judge({ name: 'f', path: p, writable });
const reason = (p: string) => {
  const v = verdict(p);
  if (!('refusal' in v)) throw new Error(`${p} was accepted`);
  return v.refusal.reason;
};

describe('the folders judge', () => {
  it.each([
    ['a path that does not exist', path.join(home, 'nope'), /^does not exist$/],
    ['a file', path.join(home, 'notes.txt'), /^is not a directory$/],
    ['/', '/', /^is the root of the file system/],
    ['the home itself', home, /^is your home folder itself/],
    ['the home through a symlink', path.join(root, 'home-link'), /^is your home folder itself \(it resolves to /],
    ['SANDBAR_HOME', sandbarHome, /^is Sandbar's own folder \(SANDBAR_HOME/],
    ['inside SANDBAR_HOME', path.join(sandbarHome, 'packages'), /^lies inside Sandbar's own folder/],
    ['a folder containing SANDBAR_HOME', path.join(home, '.local'), /^contains Sandbar's own folder/],
    ['~/.ssh', path.join(home, '.ssh'), /^is ~\/\.ssh: it holds keys/],
    ['inside ~/.ssh', path.join(home, '.ssh', 'keys'), /^lies inside ~\/\.ssh/],
    ['a symlink to ~/.ssh', path.join(home, 'innocent'), /^is ~\/\.ssh \(it resolves to .*\.ssh\)/],
    ['~/.gnupg', path.join(home, '.gnupg'), /^is ~\/\.gnupg/],
    ['~/.aws', path.join(home, '.aws'), /^is ~\/\.aws/],
    ['~/.kube', path.join(home, '.kube'), /^is ~\/\.kube/],
    ['~/.docker', path.join(home, '.docker'), /^is ~\/\.docker/],
    ['~/.config', path.join(home, '.config'), /^is ~\/\.config/],
    ['a folder holding the home', root, /^contains /],
    ['/etc', '/etc', /^is \/etc: it belongs to the system/],
    ['inside /etc', '/etc/ssl', /^lies inside \/etc/],
    ['/proc', '/proc', /^is \/proc/],
    ['/sys', '/sys', /^is \/sys/],
    ['/dev', '/dev', /^is \/dev/],
    ['/run', '/run', /^is \/run/],
    ['/var/run', '/var/run', /^is \/run|^is \/var\/run/],
    ['the runtime socket folder', path.join(home, 'sock', 'run'), /^is ~\/sock\/run \(the folder of the container runtime socket ~\/sock\/run\/docker\.sock\)/],
    ['a folder holding the socket folder', path.join(home, 'sock'), /^contains ~\/sock\/run \(the folder of the container runtime socket/],
  ])('refuses %s with its rule', (_what, p, rule) => {
    expect(reason(p)).toMatch(rule);
  });

  it('accepts a folder inside the home, resolved, at /mnt/<name>, read-only unless writable', () => {
    expect(verdict(path.join(root, 'dl-link'))).toEqual({ mount: { name: 'f', source: path.join(home, 'Downloads'), target: '/mnt/f', writable: false } });
    expect(verdict(path.join(home, 'Downloads', 'csv'), true)).toMatchObject({ mount: { writable: true } });
  });

  it('refuses a folder that overlaps one accepted before it, and keeps the others', () => {
    const plan = judge.judgeAll([
      { name: 'dl', path: path.join(home, 'Downloads') },
      { name: 'csv', path: path.join(home, 'Downloads', 'csv'), writable: true },
      { name: 'keys', path: path.join(home, '.ssh') },
    ]);
    expect(plan.mounts.map((m) => m.name)).toEqual(['dl']);
    expect(plan.refused).toEqual([
      { name: 'csv', path: path.join(home, 'Downloads', 'csv'), reason: expect.stringMatching(/^lies inside the folder dl .*folders may not overlap/) },
      { name: 'keys', path: path.join(home, '.ssh'), reason: expect.stringMatching(/^is ~\/\.ssh/) },
    ]);
  });

  it('fits folders to the backend: Podman mounts both kinds, Docker refuses writable ones, Kubernetes refuses all, each with a reason', () => {
    const judged = judge.judgeAll([
      { name: 'dl', path: path.join(home, 'Downloads', 'csv') },
      { name: 'out', path: path.join(home, '.gnupg'), writable: true },
    ]);
    const ro = { name: 'a', source: '/data/a', target: '/mnt/a', writable: false };
    const rw = { name: 'b', source: '/data/b', target: '/mnt/b', writable: true };
    expect(fitFolders(cliFeatures('podman'), { mounts: [ro, rw], refused: [] }).mounts).toEqual([ro, rw]);
    const docker = fitFolders(cliFeatures('docker'), { mounts: [ro, rw], refused: judged.refused });
    expect(docker.mounts).toEqual([ro]);
    expect(docker.refused.map((r) => r.name)).toEqual(['out', 'b']);
    expect(docker.refused[1]!.reason).toMatch(/^cannot be mounted writable on Docker: Docker cannot mount a folder writable and noexec/);
    const kube = fitFolders(KUBERNETES_FEATURES, { mounts: [ro, rw], refused: [] });
    expect(kube.mounts).toEqual([]);
    expect(kube.refused.map((r) => r.reason)).toEqual([expect.stringMatching(/^cannot be mounted on Kubernetes: a pod runs on a cluster node/), expect.stringMatching(/^cannot be mounted writable on Kubernetes/)]);
  });

  it('refuses Sandbar\'s own program folder, and any folder holding it (a sandbox could change its code or seccomp profile)', () => {
    const ofProcess = folderJudgeFor({ HOME: home, SANDBAR_HOME: sandbarHome });
    const refusal = (p: string) => {
      const v = ofProcess.judge({ name: 'f', path: p, writable: true });
      return 'refusal' in v ? v.refusal.reason : 'accepted';
    };
    expect(refusal(packageRoot())).toMatch(/^is Sandbar's program folder \(.*\): a sandbox could change the code or the seccomp profile/);
    expect(refusal(path.dirname(packageRoot()))).toMatch(/^contains Sandbar's program folder/);
    expect(refusal(path.join(home, 'Downloads'))).toBe('accepted');
  });

  it('health names each refused folder and its rule (amber), and lists the mounted ones', () => {
    const plan = judge.judgeAll([
      { name: 'dl', path: path.join(home, 'Downloads') },
      { name: 'keys', path: path.join(home, 'innocent') },
    ]);
    const check = foldersCheck(plan)!;
    expect(check).toMatchObject({ id: 'folders', status: 'warn' });
    expect(check.detail).toContain(`keys (${path.join(home, 'innocent')}) is ~/.ssh`);
    expect(check.detail).toContain(`${path.join(home, 'Downloads')} at /mnt/dl (read-only)`);
    expect(foldersCheck({ mounts: plan.mounts, refused: [] })).toMatchObject({ status: 'ok' });
    expect(foldersCheck({ mounts: [], refused: [] })).toBeNull();
  });
});
