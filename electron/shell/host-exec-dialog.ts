// The native confirmation shown before a settings change that runs something on the host (a server's
// command, the container runtime), hands sandboxes folders, or sends a secret out (egress's secrets, CA file). Native, not a web dialog: a compromised page cannot draw or click it.
import type { HostExecChange } from '../settings/host-exec-fields.js';

export interface HostExecDialog {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: [string, string];
  /** Enter and Escape both mean "don't". */
  defaultId: 0;
  cancelId: 0;
  noLink: true;
}

/** Which button means yes. */
export const CONFIRM_BUTTON = 1;

/** The folders change alone says what it hands sandboxes; it runs nothing (folder-change.ts). */
function foldersDialog(change: HostExecChange): Pick<HostExecDialog, 'message' | 'detail'> {
  const list = change.command.replace(/^folders: /, '').split('; ').join('\n    ');
  return {
    message: 'Let every sandbox see these folders?',
    detail: `folders:\n    ${list}\n\nCode in every sandbox can read everything in them, and change or delete what is in a writable one. Only confirm a change you made yourself.`,
  };
}

/** Egress's secrets and CA file run nothing: they decide which credential leaves, and which servers are trusted. */
const isEgressTrust = (c: HostExecChange) => c.field.startsWith('secrets.') || c.field === 'egressCaFile';

function egressDialog(lines: string[]): Pick<HostExecDialog, 'message' | 'detail'> {
  return {
    message: 'Let Sandbar send these secrets and trust these certificates for sandboxes\' requests?',
    detail: `${lines.join('\n\n')}\n\nSandbar adds a secret to requests for its hosts only (the sandbox never sees the value), and checks those hosts against the CA file. Only confirm a change you made yourself.`,
  };
}

export function hostExecDialog(changes: readonly HostExecChange[]): HostExecDialog {
  // Loader and path variables are named in words under their command: they change what the command runs.
  const lines = changes.map((c) => [`${c.field}:`, `    ${c.command}`, ...(c.notes ?? []).map((n) => `    ⚠ ${n}`)].join('\n'));
  const only = changes.length === 1 && changes[0]!.field === 'folders' ? foldersDialog(changes[0]!) : changes.length > 0 && changes.every(isEgressTrust) ? egressDialog(lines) : null;
  return {
    type: 'warning',
    title: 'Sandbar',
    message: only?.message ?? (changes.length === 1 ? 'Allow this command to run on your computer?' : `Allow these ${changes.length} commands to run on your computer?`),
    detail: only?.detail ?? `${lines.join('\n\n')}\n\nThey run outside the sandbox, as you, with your files and network. Only confirm a change you made yourself.`,
    buttons: ['Cancel', 'Allow'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}
