// The user's folders in the sandbox: the `folders` setting's shape, where each appears, and how a refused
// one is described. The judge that refuses paths reads the disk and lives in electron/settings/folder-judge.ts.
import { z } from 'zod';

export const FOLDER_NAME_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Where every folder appears inside a sandbox. */
export const FOLDERS_MOUNT_ROOT = '/mnt';

export const folderMountPath = (name: string): string => `${FOLDERS_MOUNT_ROOT}/${name}`;

/**
 * Characters refused anywhere in a folder's path: `--mount` splits options on commas (and CSV-quotes with
 * `"`), `-v` splits on colons, and a control character or newline would break a command line or a log.
 */
// eslint-disable-next-line no-control-regex
export const UNMOUNTABLE_CHARS_RE = /[,:"\u0000-\u001f\u007f]/;

export const FolderSchema = z.object(
  {
    name: z
      .string({ error: 'must be a name: lowercase letters, digits, _ and -, starting with a letter or digit, at most 32' })
      .regex(FOLDER_NAME_RE, 'must be a name: lowercase letters, digits, _ and -, starting with a letter or digit, at most 32'),
    path: z
      .string({ error: 'must be an absolute path to a folder on this computer' })
      .min(1, 'must be an absolute path to a folder on this computer')
      .refine((p) => p.startsWith('/'), 'must be an absolute path to a folder on this computer (starting with /)')
      .refine((p) => !UNMOUNTABLE_CHARS_RE.test(p), 'cannot contain a comma, colon, double quote or control character (they would change the mount)'),
    writable: z.boolean({ error: 'must be true or false' }).optional(),
  },
  { error: 'must be an object with name, path and (optionally) writable' },
);

export type FolderSetting = z.infer<typeof FolderSchema>;

export const FoldersSchema = z
  .array(FolderSchema, { error: 'must be a list of folders: [{ "name": "data", "path": "/home/me/data" }]' })
  .max(32, 'must list at most 32 folders')
  .superRefine((folders, ctx) => {
    const seen = new Set<string>();
    folders.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `the name ${f.name} is used twice (each folder needs its own /mnt/<name>)` });
      seen.add(f.name);
    });
  });

/** A folder as a sandbox gets it: judged, its path resolved (no symlinks left). */
export interface FolderMount {
  name: string;
  /** The resolved host directory. */
  source: string;
  /** `/mnt/<name>`. */
  target: string;
  writable: boolean;
}

/** A folder in the settings that is not mounted, and the rule that refused it. */
export interface FolderRefusal {
  name: string;
  path: string;
  /** The rule in words ("lies inside ~/.ssh"). */
  reason: string;
}

/** What the model and the panel see of a folder: never the host path. */
export interface FolderInfo {
  name: string;
  mountPath: string;
  writable: boolean;
}

export const folderInfoOf = (m: FolderMount): FolderInfo => ({ name: m.name, mountPath: m.target, writable: m.writable });

/** A folder one run had, as history keeps it: with the host folder, for the person reading their history. */
export interface RunFolder extends FolderInfo {
  path: string;
}

export const runFolderOf = (m: FolderMount): RunFolder => ({ ...folderInfoOf(m), path: m.source });
