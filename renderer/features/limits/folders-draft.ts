// Pure helpers of the Folders card: a name for a picked folder, and the draft list checked with the same
// schema the main process uses (the judge's refusals come back from the server, field by field).
import { FoldersSchema, type FolderSetting } from '../../../shared/folders.js';

/** A free `/mnt/<name>` from the folder's last part: lowercase, [a-z0-9_-], at most 32, numbered if taken. */
export function suggestName(folderPath: string, taken: readonly string[]): string {
  const last = folderPath.split(/[\\/]/).filter(Boolean).pop() ?? '';
  const cleaned = last.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[-_]+/, '').slice(0, 29).replace(/[-_]+$/, '');
  const base = cleaned || 'folder';
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}

/** Each problem by the row it belongs to (`name` or `path`), or the list's own. */
export function folderDraftErrors(folders: readonly FolderSetting[]): { rows: Record<number, string>; list: string | null } {
  const parsed = FoldersSchema.safeParse(folders);
  if (parsed.success) return { rows: {}, list: null };
  const rows: Record<number, string> = {};
  let list: string | null = null;
  for (const issue of parsed.error.issues) {
    const [index, field] = issue.path;
    if (typeof index === 'number') rows[index] ??= `${String(field ?? 'folder')} ${issue.message}`;
    else list ??= issue.message;
  }
  return { rows, list };
}

/** Server field errors (`folders.2.path`) as row messages. */
export function rowErrorsFromFields(fields: Record<string, string>): { rows: Record<number, string>; other: string[] } {
  const rows: Record<number, string> = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(fields)) {
    const m = /^folders\.(\d+)(?:\.(\w+))?$/.exec(key);
    if (m) rows[Number(m[1])] ??= message;
    else other.push(key === 'folders' ? message : `${key}: ${message}`);
  }
  return { rows, other };
}
