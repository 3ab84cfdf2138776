// Keeps discovery current while Sandbar runs: re-discovers (debounced) when a source folder reports a change,
// and tells the caller only when the result is actually different.
//
// Change detection is fs.watch on folders (see watch-plan.ts), which is immediate and costs nothing while
// idle. A slow rescan (default every 10 s) backs it up where fs.watch is known to miss events: network and
// WSL-mounted folders, symlinked config files, a full inotify watch table, a watched folder replaced
// outside home. The rescan also renews every watch, so a watch gone silent never stays that way.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { DiscoveryResult } from '../../../shared/proxy.js';
import { errorMessage } from '../../../shared/errors.js';
import type { Logger } from '../../logger.js';
import { discoverServers, type DiscoveryOptions } from './discover.js';
import { watchPlan } from './watch-plan.js';

export interface DiscoveryWatcherOptions extends DiscoveryOptions {
  onChange(result: DiscoveryResult): void;
  /** Quiet time after the last file event before discovering again. */
  debounceMs?: number;
  /** The backstop rescan; never below 1 s. */
  rescanMs?: number;
  log?: Logger;
}

interface FolderWatch {
  watcher: FSWatcher;
  names: Set<string> | null;
}

export class DiscoveryWatcher {
  readonly #options: DiscoveryWatcherOptions;
  readonly #folders = new Map<string, FolderWatch>();
  #result: DiscoveryResult | undefined;
  #key = '';
  #debounce: NodeJS.Timeout | undefined;
  #rescan: NodeJS.Timeout | undefined;
  #state: 'idle' | 'running' | 'disposed' = 'idle';

  constructor(options: DiscoveryWatcherOptions) {
    this.#options = options;
  }

  current(): DiscoveryResult {
    if (this.#result === undefined) this.#store(discoverServers(this.#options));
    return this.#result!;
  }

  /** Starts watching and discovers (calling onChange only if an earlier current() is already out of date). */
  start(): void {
    if (this.#state !== 'idle') return;
    this.#state = 'running';
    if (this.#result === undefined) {
      this.#syncWatches();
      this.#store(discoverServers(this.#options));
    } else {
      this.#refresh();
    }
    const every = Math.max(1000, this.#options.rescanMs ?? 10_000);
    this.#rescan = setInterval(() => this.#refresh(true), every);
    this.#rescan.unref();
  }

  dispose(): void {
    this.#state = 'disposed';
    clearTimeout(this.#debounce);
    clearInterval(this.#rescan);
    for (const dir of [...this.#folders.keys()]) this.#unwatch(dir);
  }

  #store(result: DiscoveryResult): void {
    this.#result = result;
    this.#key = canonical(result);
  }

  #schedule(): void {
    if (this.#state !== 'running') return;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.#refresh(), this.#options.debounceMs ?? 200);
    this.#debounce.unref();
  }

  #refresh(renewWatches = false): void {
    if (this.#state !== 'running') return;
    try {
      if (renewWatches) for (const dir of [...this.#folders.keys()]) this.#unwatch(dir);
      // Watches first, then read: a change after this point fires a new event; one before it is read now.
      this.#syncWatches();
      const next = discoverServers(this.#options);
      if (canonical(next) === this.#key) return;
      this.#store(next);
      this.#options.onChange(next);
    } catch (err) {
      // Runs from timers and fs events: an exception here would take the whole process down.
      this.#options.log?.warn(`MCP server discovery failed: ${errorMessage(err)}`);
    }
  }

  #syncWatches(): void {
    const plan = watchPlan(this.#options);
    for (const dir of [...this.#folders.keys()]) if (!plan.has(dir)) this.#unwatch(dir);
    for (const [dir, names] of plan) {
      const existing = this.#folders.get(dir);
      if (existing) existing.names = names;
      else this.#watch(dir, names);
    }
  }

  #watch(dir: string, names: Set<string> | null): void {
    try {
      // Not persistent: watching config folders must never keep a CLI process alive.
      const watcher = watch(dir, { persistent: false }, (_event, filename) => {
        const entry = this.#folders.get(dir);
        if (filename) {
          // A watched subfolder was deleted, made or renamed: its watch may now follow a dead folder; the
          // refresh scheduled below watches whatever is there now.
          const child = path.join(dir, String(filename));
          if (this.#folders.has(child)) this.#unwatch(child);
        }
        if (!entry || entry.names === null || !filename || entry.names.has(String(filename).toLowerCase())) this.#schedule();
      });
      // A folder that vanishes can error (EPERM on Windows). The parent's watch or the rescan sees the
      // change; rescheduling from here could spin if the error repeats.
      watcher.on('error', () => this.#unwatch(dir));
      this.#folders.set(dir, { watcher, names });
    } catch (err) {
      // ENOSPC (inotify table full), or the folder disappeared between plan and watch: the rescan covers it.
      this.#options.log?.debug(`Cannot watch ${dir}: ${errorMessage(err)}`);
    }
  }

  #unwatch(dir: string): void {
    const entry = this.#folders.get(dir);
    this.#folders.delete(dir);
    try {
      entry?.watcher.close();
    } catch {
      // Already closed.
    }
  }
}

/** JSON with object keys sorted: the same servers with env keys reordered are the same result. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
