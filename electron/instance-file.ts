// `instance.json` in SANDBAR_HOME says which process serves this home and where, so `sandbar stdio`, the
// packaged app's `--stdio`, `sandbar run` and `sandbar approvals` can join the running instance instead of
// starting a second engine. Before any of them sends a token there, the listener proves it is the recorded
// instance (instance-proof.ts): the address alone proves nothing, since after the instance exits any local
// process may take its port. Plain Node only: the CLI checks for an instance before it loads anything heavy.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInstanceKey, proveInstance } from './instance-proof.js';
import { closeLoopbackConnections, loopbackRequest } from './loopback-http.js';

export const INSTANCE_FILE = 'instance.json';

export interface InstanceRecord {
  pid: number;
  /** The MCP endpoint (`http://127.0.0.1:PORT/mcp`). */
  url: string;
  startedAt: number;
  /**
   * The instance's secret for the proof (hex): only in this file, owner-only in the 0700 home, so only this
   * user's processes and the instance know it. A fresh one per instance.
   */
  key: string;
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
    // A file without a key (an older version) cannot be checked: treated as no instance, so no token goes there.
    if (!isInstanceKey(record.key)) return null;
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

/** What the listener at the recorded address is: the instance, nobody, or something else (never sent a token). */
export type VerifiedInstance = { ok: true; instance: InstanceRecord } | { ok: false; reason: string } | null;

/**
 * The live instance of this home, after its listener proved it holds the key in instance.json; null when
 * none is recorded. `ok: false` says why the listener was not trusted (an impostor, or no answer).
 */
export async function verifiedInstance(home: string): Promise<VerifiedInstance> {
  const instance = readInstance(home);
  if (!instance) return null;
  const proof = await proveInstance(instance.url, instance.key);
  if (proof.ok) return { ok: true, instance };
  return { ok: false, reason: `The listener at ${instance.url} is not the Sandbar instance recorded in ${path.join(home, INSTANCE_FILE)} (${proof.reason}); no token was sent to it.` };
}

/**
 * The running instance for this home if it proves itself (verifiedInstance) and its MCP endpoint takes
 * this client token within a second, else null. The probe is a GET without a session: an instance that
 * accepts the token answers 400 ("no session ID") and creates nothing; a wrong token gets 401.
 */
export async function findRunningInstance(home: string, token: string, warn: (message: string) => void = () => {}): Promise<BridgeTarget | null> {
  const verified = await verifiedInstance(home);
  if (!verified) return null;
  if (!verified.ok) {
    warn(verified.reason);
    return null;
  }
  const instance = verified.instance;
  try {
    const res = await loopbackRequest(instance.url, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, timeoutMs: 1000 });
    return res.status === 400 ? { url: instance.url, token } : null;
  } catch {
    return null;
  } finally {
    closeLoopbackConnections();
  }
}
