// `instance.json` in SANDBAR_HOME says which process serves this home and where, so `sandbar stdio`, the
// packaged app's `--stdio` and `sandbar run` can join the running instance instead of starting a second
// engine. Plain Node only: the CLI checks for an instance before it loads anything heavy.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeLoopbackConnections, loopbackRequest } from './loopback-http.js';

export const INSTANCE_FILE = 'instance.json';

export interface InstanceRecord {
  pid: number;
  /** The MCP endpoint (`http://127.0.0.1:PORT/mcp`). */
  url: string;
  startedAt: number;
}

export function writeInstance(home: string, record: InstanceRecord): void {
  const file = path.join(home, INSTANCE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
  renameSync(temp, file);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: another user's process, which is not our instance either way.
    return false;
  }
}

/** The live instance serving this home, or null (none, a stale file from a crash, or unreadable). */
export function readInstance(home: string): InstanceRecord | null {
  try {
    const record = JSON.parse(readFileSync(path.join(home, INSTANCE_FILE), 'utf8')) as Partial<InstanceRecord>;
    if (typeof record.pid !== 'number' || typeof record.url !== 'string' || !record.url.startsWith('http://127.0.0.1:')) return null;
    return alive(record.pid) ? (record as InstanceRecord) : null;
  } catch {
    return null;
  }
}

/** Removes the file if it is still this process's (a newer instance may have replaced it). */
export function clearInstance(home: string, pid = process.pid): void {
  const current = readRaw(home);
  if (current?.pid === pid) rmSync(path.join(home, INSTANCE_FILE), { force: true });
}

function readRaw(home: string): Partial<InstanceRecord> | null {
  try {
    return JSON.parse(readFileSync(path.join(home, INSTANCE_FILE), 'utf8')) as Partial<InstanceRecord>;
  } catch {
    return null;
  }
}

export interface BridgeTarget {
  url: string;
  token: string;
}

/**
 * The running instance for this home if its MCP endpoint takes this client token within a second, else
 * null. The probe is a GET without a session: an instance that accepts the token answers 400 ("no session
 * ID") and creates nothing; a wrong token gets 401. The client token opens nothing else, so /mcp it is.
 */
export async function findRunningInstance(home: string, token: string): Promise<BridgeTarget | null> {
  const instance = readInstance(home);
  if (!instance) return null;
  try {
    const res = await loopbackRequest(instance.url, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, timeoutMs: 1000 });
    return res.status === 400 ? { url: instance.url, token } : null;
  } catch {
    return null;
  } finally {
    closeLoopbackConnections();
  }
}
