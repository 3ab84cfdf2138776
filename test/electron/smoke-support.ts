// The desktop smoke test's plumbing: a numbered checklist that prints TAP-like lines and the plain
// totals line, polling, the hook's report file, the process table, and a second app instance.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { parseSmokeReport, type SmokeEvent } from '../../electron/shell/smoke-hook.js';
import type { PreloadApi } from '../../shared/contract.js';
import { parsePs } from './outside-checks.js';

export const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** The page's globals as the checks read them (the tests' tsconfig has no DOM types). */
export type PageGlobals = Record<string, unknown> & {
  sandbar: PreloadApi;
  location: { hash: string };
  document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };
};

/** A picture for the workflow's artifacts; never a reason to fail. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), timeout: 15_000 }).catch((err: unknown) => {
    console.log(`# no ${name}.png: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  });
}

export class Checklist {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  /** Runs one check; a thrown error is a failure like a returned problem. */
  async check(name: string, run: () => Promise<string[]> | string[]): Promise<boolean> {
    let problems: string[];
    try {
      problems = await run();
    } catch (err) {
      problems = [`threw: ${err instanceof Error ? err.message : String(err)}`];
    }
    const n = this.passed + this.failed + this.skipped + 1;
    if (problems.length === 0) {
      this.passed++;
      console.log(`ok ${n} - ${name}`);
      return true;
    }
    this.failed++;
    console.log(`not ok ${n} - ${name}`);
    for (const problem of problems) console.log(`  # ${problem}`);
    return false;
  }

  skip(name: string, why: string): void {
    this.skipped++;
    console.log(`ok ${this.passed + this.failed + this.skipped} - ${name} # SKIP ${why}`);
  }

  get ok(): boolean {
    return this.failed === 0;
  }

  /** The plain closing line CI reads. */
  summary(): string {
    return `${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` returns a value that is not null/undefined, or throws `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? ` (${last.message})` : ''}`);
    await sleep(250);
  }
}

export type ReportEvent = SmokeEvent & { at: number };

export function readReport(file: string): ReportEvent[] {
  try {
    return parseSmokeReport(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
}

export function findEvent<E extends ReportEvent['event']>(file: string, event: E): Extract<ReportEvent, { event: E }> | null {
  return (readReport(file).find((e) => e.event === event) as Extract<ReportEvent, { event: E }> | undefined) ?? null;
}

/** The process table on Linux and macOS (`ps`); null on Windows, where the tree is not checked. */
export function processTable(): { pid: number; ppid: number }[] | null {
  if (process.platform === 'win32') return null;
  return parsePs(execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid='], { encoding: 'utf8' }));
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is not ours (a reused pid); still counts as present.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts the app a second time for the same home and resolves with its exit code (it must hand over and leave). */
export function runSecondInstance(electron: string, appDir: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<{ code: number | null; pid: number; output: string }> {
  // Chromium's setuid sandbox helper is not set up in an npm install: the first instance gets the same
  // switch from Playwright on Linux.
  const args = process.platform === 'linux' ? ['--no-sandbox', appDir] : [appDir];
  const child = spawn(electron, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the second instance did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, pid: child.pid ?? -1, output });
    });
  });
}
