// A small owner-only file in SANDBAR_HOME listing the live sessions of each running instance, so that after a
// restart (or a crash) the next call with an old id hears "Sandbar restarted" instead of a bare "unknown".
// Only a hash of the owner's credential is written, never the credential.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_ID_PATTERN } from '../../shared/sessions.js';
import { PRIVATE_FILE_MODE } from '../settings/private-home.js';
import { isProcessAlive } from '../sandbox/reaper.js';

export const SESSIONS_FILE = 'sessions.json';

export interface JournalEntry {
  id: string;
  /** sha256 of the owner key: the id is only explained to the credential that opened it. */
  owner: string;
  pid: number;
}

export function ownerHash(ownerKey: string): string {
  return createHash('sha256').update(ownerKey).digest('hex');
}

export class SessionJournal {
  private readonly file: string;

  constructor(
    home: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = isProcessAlive,
  ) {
    this.file = path.join(home, SESSIONS_FILE);
  }

  /** At start: the sessions of instances that are gone (this process's earlier life included), removed from the file. */
  takeOrphans(): JournalEntry[] {
    const entries = this.read();
    const orphans = entries.filter((e) => e.pid === this.pid || !this.alive(e.pid));
    if (orphans.length > 0) this.write(entries.filter((e) => !orphans.includes(e)));
    return orphans;
  }

  opened(id: string, ownerKey: string): void {
    this.write([...this.read().filter((e) => e.id !== id), { id, owner: ownerHash(ownerKey), pid: this.pid }]);
  }

  ended(id: string): void {
    const entries = this.read();
    if (entries.some((e) => e.id === id)) this.write(entries.filter((e) => e.id !== id));
  }

  private read(): JournalEntry[] {
    try {
      const value = JSON.parse(readFileSync(this.file, 'utf8')) as { sessions?: unknown };
      const list = Array.isArray(value.sessions) ? value.sessions : [];
      return list.filter(
        (e): e is JournalEntry =>
          !!e && typeof e === 'object' && SESSION_ID_PATTERN.test(String((e as JournalEntry).id)) && typeof (e as JournalEntry).owner === 'string' && Number.isSafeInteger((e as JournalEntry).pid),
      );
    } catch {
      return []; // missing or damaged: nothing to explain, which only costs a plainer message
    }
  }

  private write(entries: JournalEntry[]): void {
    try {
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify({ sessions: entries })}\n`, { mode: PRIVATE_FILE_MODE });
      renameSync(temp, this.file);
    } catch {
      // The journal only improves a message; a read-only home must not fail a run.
    }
  }
}
