// Warm imports: which modules a pooled sandbox imports while it waits for code (setting `preload`), and
// Matplotlib's font list, built at most once per image and handed to every sandbox in its boot payload.
//
// Why a font list at all: with a read-only root and a fresh /workspace, `import matplotlib.pyplot` rebuilds
// the list in every container (3.2 s measured), and a preloading pool would pay that CPU for every run.
// Why in the boot payload and not a mount: nothing of the host is mounted into a sandbox (no host path can
// become readable or writable from it, no shared-folder set-up on a VM-backed runtime, and the same path
// works for Kubernetes pods, which have no host paths to mount at all). The list is about 100 KB of JSON.
// It is built by running a fixed snippet in an ordinary sandbox of that image (no user code), and kept
// under SANDBAR_HOME (owner-only) per image id, so it survives restarts.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../shared/errors.js';
import type { SandboxBackend, ContainerSpec, FontList, PreloadPlan } from './backend.js';
import { runInContainer } from './run/execution.js';
import type { SandboxContainer } from './run/sandbox-container.js';

/** Setting `preload: null`: whichever of these the image has (and, see PreloadUsage, the runs use). */
export const DEFAULT_PRELOAD: readonly string[] = ['numpy', 'pandas', 'matplotlib.pyplot'];

export type { PreloadPlan } from './backend.js';

/**
 * The plan for pooled containers. A list in the setting is imported as given. The default (null) is the
 * default modules the recent runs imported: a pooled container is used once, so a preload no run needs is
 * CPU burnt per run for nothing (measured: about 0.8 s for numpy + pandas + pyplot behind every `print(1)`).
 */
export function preloadPlan(setting: readonly string[] | null | undefined, inUse: readonly string[] = DEFAULT_PRELOAD): PreloadPlan | undefined {
  if (setting === null || setting === undefined) {
    const modules = DEFAULT_PRELOAD.filter((m) => inUse.includes(m));
    return modules.length > 0 ? { modules, optional: true } : undefined;
  }
  return setting.length > 0 ? { modules: [...setting], optional: false } : undefined;
}

/** How many recent runs decide the default preloads: a module none of them imported is no longer preloaded. */
export const PRELOAD_USAGE_WINDOW = 20;

/** Which default preloads the recent runs imported (the agent reports it; see agent/warm_imports.py). */
export class PreloadUsage {
  private readonly runs: string[][] = [];

  constructor(private readonly window = PRELOAD_USAGE_WINDOW) {}

  /** The default modules at least one of the recent runs imported, in DEFAULT_PRELOAD's order. */
  inUse(): string[] {
    return DEFAULT_PRELOAD.filter((m) => this.runs.some((run) => run.includes(m)));
  }

  /** One finished run's imports (anything but the default modules is ignored); true when inUse() changed. */
  record(imported: readonly string[]): boolean {
    const before = this.inUse().join();
    this.runs.push(DEFAULT_PRELOAD.filter((m) => imported.includes(m)));
    if (this.runs.length > this.window) this.runs.shift();
    return this.inUse().join() !== before;
  }
}

/** A preload the user asked for that did not import, in words for the pool's status; null when all is well. */
export function preloadProblem(container: Pick<SandboxContainer, 'preload'>): string | null {
  const failed = container.preload?.failed ?? [];
  if (failed.length === 0) return null;
  return `Preload (setting "preload"): could not import ${failed.map((f) => `${f.module} (${f.error})`).join('; ')}`;
}

export type { FontList } from './backend.js';

const FONT_LIST_NAME = /^fontlist-v\d+\.json$/;
const MAX_FONT_LIST_CHARS = 8 * 1024 * 1024;

/** Run in a fresh sandbox of the image: builds the list in a private temp dir and prints it as one JSON line. */
export const FONT_LIST_SNIPPET = `
import json, os, tempfile
os.environ['MPLCONFIGDIR'] = tempfile.mkdtemp()
try:
    from matplotlib import font_manager
except ImportError:
    font_list = None
else:
    name = 'fontlist-v%s.json' % font_manager.FontManager.__version__
    path = os.path.join(os.environ['MPLCONFIGDIR'], name)
    font_list = {'name': name, 'data': open(path).read()} if os.path.exists(path) else None
print(json.dumps({'fontList': font_list}))
`;

/** Parses the snippet's output: a font list, null (the image has no Matplotlib), or throws. */
export function parseFontListOutput(stdout: string): FontList | null {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  const value = (JSON.parse(last) as { fontList?: unknown }).fontList;
  if (value === null) return null;
  const list = value as Partial<FontList> | undefined;
  if (!list || typeof list.name !== 'string' || !FONT_LIST_NAME.test(list.name) || typeof list.data !== 'string' || list.data.length > MAX_FONT_LIST_CHARS) {
    throw new Error('the font list snippet printed something else');
  }
  JSON.parse(list.data); // it must be JSON, or Matplotlib would just rebuild it
  return { name: list.name, data: list.data };
}

/** Builds the font list in one sandbox of `spec` from `backend` (a cold one: no preload, no font list). */
export async function buildFontList(backend: Pick<SandboxBackend, 'create' | 'kill'>, spec: ContainerSpec): Promise<FontList | null> {
  const container = await backend.create(spec, {});
  try {
    const outcome = await runInContainer(container, {
      executionId: 'font-list',
      code: FONT_LIST_SNIPPET,
      context: {},
      timeoutSec: 120,
      outputCapBytes: MAX_FONT_LIST_CHARS * 2,
      memory: spec.limits.memory,
      kill: (c) => backend.kill([c.name]),
    });
    if (outcome.exitReason !== 'success') throw new Error(outcome.message ?? outcome.stderr.trim().slice(-500));
    return parseFontListOutput(outcome.stdout);
  } finally {
    await backend.kill([container.name]).catch(() => {});
  }
}

/**
 * Font lists per image: in memory, on disk under `dir` (owner-only) when given, else built once. A failed
 * build is remembered as "none" for this process, so a broken image does not cost a sandbox per pool refill.
 */
export class FontListCache {
  private readonly memory = new Map<string, FontList | null>();
  private readonly building = new Map<string, Promise<FontList | null>>();

  constructor(private readonly dir?: string) {}

  /** Known now (memory or disk), without building; undefined when unknown. */
  peek(key: string): FontList | null | undefined {
    if (this.memory.has(key)) return this.memory.get(key);
    const stored = this.read(key);
    if (stored !== undefined) this.memory.set(key, stored);
    return stored;
  }

  /** Known, or built by `build` once however many ask at the same time. */
  get(key: string, build: () => Promise<FontList | null>): Promise<FontList | null> {
    const known = this.peek(key);
    if (known !== undefined) return Promise.resolve(known);
    let pending = this.building.get(key);
    if (!pending) {
      pending = build().then(
        (list) => {
          this.memory.set(key, list);
          this.write(key, list);
          return list;
        },
        (err: unknown) => {
          this.memory.set(key, null);
          this.lastError = `Matplotlib's font list could not be built, so each sandbox builds its own: ${errorMessage(err)}`;
          return null;
        },
      );
      void pending.finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  lastError: string | null = null;

  private file(key: string): string | undefined {
    return this.dir ? path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`) : undefined;
  }

  private read(key: string): FontList | null | undefined {
    const file = this.file(key);
    if (!file) return undefined;
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { key?: string; fontList?: FontList | null };
      if (stored.key !== key) return undefined;
      return stored.fontList ? parseFontListOutput(JSON.stringify({ fontList: stored.fontList })) : null;
    } catch {
      return undefined; // missing or damaged: built again
    }
  }

  private write(key: string, list: FontList | null): void {
    const file = this.file(key);
    if (!file || !this.dir) return;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (process.platform !== 'win32' && (statSync(this.dir).mode & 0o077) !== 0) chmodSync(this.dir, 0o700);
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ key, fontList: list }), { mode: 0o600 });
      renameSync(temp, file);
    } catch {
      // Kept in memory for this process; the next start builds it again.
    }
  }
}
