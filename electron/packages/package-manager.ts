// `packages` for a run: requirements → a resolved set of verified wheels → an installed, read-only layer
// under $SANDBAR_HOME/packages, reused by every later run asking for the same thing. Resolution runs pip
// in a helper container with no network whose only way out is the index proxy; installation runs pip in
// another with no way out at all. The run's own container never gets a network. Helpers are bounded
// (helper-slots.ts): two at once, each with a runtime-side lifetime, the whole step under a deadline.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { parseRequirement, MAX_PACKAGES, type PackageFetch } from '../../shared/packages.js';
import { PACKAGE_LAYERS_MOUNT as LAYERS_MOUNT, type SandboxSpec } from '../sandbox/sandbox-spec.js';
import { HelperSlots, SharedBuild } from './helper-slots.js';
import { IndexProxy } from './index-proxy.js';
import { layerKey, LayerStore } from './layer-store.js';
import { pipSpec, runPipStep, type PipOutcome } from './pip-container.js';

/** An unpinned set is resolved again after this long; until then the same layer serves it. */
export const RESOLUTION_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * The whole package step of a run (waiting for a helper, resolving, downloading, installing) ends here with
 * an error; each helper container also dies on its own after this long (runtime `--timeout` where the
 * runtime has one, and a timer inside the helper everywhere), even if Sandbar itself is killed.
 */
export const PACKAGE_STEP_DEADLINE_SEC = 600;

export interface PreparedPackages {
  /** The layer's path inside the sandbox, or null when the image already satisfies everything. */
  path: string | null;
  key: string | null;
  /** No helper container ran: a cached resolution and an existing layer. */
  reused: boolean;
  fetches: PackageFetch[];
}

export interface PackageRuntime {
  path: string;
  argsOf(spec: SandboxSpec): string[];
  kill(name: string): Promise<void>;
  /** The run hardening for `image`, without name and command; the manager sets limits for its helpers. */
  baseSpec(image: string): Omit<SandboxSpec, 'name' | 'command'>;
}

export interface PackageManagerOptions {
  root: string;
  indexUrl: () => string;
  capBytes: () => number;
  runtime: () => Promise<PackageRuntime>;
  onFetch?: (fetch: PackageFetch) => void;
  fetchImpl?: typeof fetch;
  /** PACKAGE_STEP_DEADLINE_SEC unless a test needs a shorter one. */
  deadlineSec?: number;
}

interface Resolution {
  at: number;
  key: string | null;
}

const HELPER_LIMITS = { memory: '1g', tmpSize: '1g', workspaceSize: '16m' } as const;

export class PackageManager {
  readonly store: LayerStore;
  private readonly inFlight = new Map<string, SharedBuild<PreparedPackages>>();
  /** At most MAX_PACKAGE_HELPERS pip containers at once, whatever the number of builds. */
  readonly helpers = new HelperSlots();
  /** The latest refusal or failure (health shows it until a later fetch succeeds). */
  lastProblem: string | null = null;
  private ready: Promise<void> | undefined;

  constructor(private readonly options: PackageManagerOptions) {
    this.store = new LayerStore(options.root, options.capBytes);
  }

  /** Checks requirement strings; throws invalid_request naming the first bad one. */
  static check(requirements: readonly string[]): string[] {
    if (requirements.length > MAX_PACKAGES) throw new AppError('invalid_request', `At most ${MAX_PACKAGES} packages per run.`);
    for (const text of requirements) {
      const parsed = parseRequirement(text);
      if ('error' in parsed) throw new AppError('invalid_request', `packages: ${parsed.error}`);
    }
    return [...new Set(requirements)].sort();
  }

  async prepare(requirements: readonly string[], image: string, signal?: AbortSignal): Promise<PreparedPackages> {
    const wanted = PackageManager.check(requirements);
    this.ready ??= this.store.init();
    await this.ready;
    const resolutionKey = createHash('sha256').update(JSON.stringify({ image, index: this.options.indexUrl(), wanted })).digest('hex').slice(0, 32);
    const cached = await this.cachedResolution(resolutionKey);
    if (cached && (cached.key === null || (await this.store.has(cached.key)))) {
      if (cached.key) await this.store.touch(cached.key);
      return { path: cached.key ? `${LAYERS_MOUNT}/${cached.key}` : null, key: cached.key, reused: true, fetches: [] };
    }
    // Runs asking for the same new set at once: one build, all wait for it; it stops when none waits.
    let job = this.inFlight.get(resolutionKey);
    if (!job) {
      const shared = new SharedBuild((buildSignal) => this.withDeadline(buildSignal, (stepSignal) => this.build(wanted, image, resolutionKey, stepSignal)));
      job = shared;
      this.inFlight.set(resolutionKey, shared);
      void shared.promise.finally(() => this.inFlight.get(resolutionKey) === shared && this.inFlight.delete(resolutionKey)).catch(() => {});
    }
    return job.join(signal);
  }

  /** Runs `work` with a signal that aborts when `outer` does or the deadline passes; the deadline wins with its own error. */
  private async withDeadline<T>(outer: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadlineSec = this.options.deadlineSec ?? PACKAGE_STEP_DEADLINE_SEC;
    const controller = new AbortController();
    const stop = () => controller.abort(outer.reason);
    outer.addEventListener('abort', stop, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const err = new AppError('runtime_failed', `Preparing the packages took longer than ${deadlineSec} s (the package step's deadline); the helpers were stopped. Ask for fewer or smaller packages, or try again.`);
        controller.abort(err);
        reject(err);
      }, deadlineSec * 1000);
    });
    const cancelled = new Promise<never>((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }));
    const running = work(controller.signal);
    running.catch(() => {});
    try {
      return await Promise.race([running, deadline, cancelled]);
    } finally {
      clearTimeout(timer);
      outer.removeEventListener('abort', stop);
      if (!controller.signal.aborted) controller.abort(new AppError('cancelled', 'the package step ended'));
    }
  }

  private async build(wanted: string[], image: string, resolutionKey: string, signal: AbortSignal): Promise<PreparedPackages> {
    const runtime = await this.options.runtime();
    const socket = path.join(this.store.root, `proxy-${randomBytes(6).toString('hex')}.sock`);
    const proxy = new IndexProxy({
      indexUrl: this.options.indexUrl(),
      wheels: { get: (sha) => this.store.getWheel(sha), put: (sha, _name, data) => this.store.putWheel(sha, data) },
      onFetch: (fetch) => {
        if (fetch.status === 'refused' || fetch.status === 'failed') this.lastProblem = fetch.detail ?? fetch.status;
        else if (fetch.kind === 'file' && fetch.status === 'ok') this.lastProblem = null;
        this.options.onFetch?.(fetch);
      },
      ...(this.options.fetchImpl ? { fetchImpl: this.options.fetchImpl } : {}),
    });
    await new Promise<void>((resolve, reject) => proxy.server.once('error', reject).listen(socket, resolve));
    try {
      const pipWheel = await this.pipWheel(socket, proxy);
      const resolved = await this.step(runtime, image, 'resolve', proxy, signal, {
        pipWheel,
        args: ['install', '--dry-run', '--quiet', '--ignore-requires-python', '--no-cache-dir', '--disable-pip-version-check', '--no-input', '--only-binary=:all:', '--report', '/tmp/report.json', '--index-url', '{INDEX}', '--', ...wanted],
      }, socket);
      const { wheels, python, platform } = readReport(resolved.report);
      if (wheels.length === 0) {
        await this.saveResolution(resolutionKey, null);
        return { path: null, key: null, reused: false, fetches: [...proxy.log] };
      }
      const key = layerKey(wheels, python, platform);
      if (!(await this.store.has(key))) await this.install(runtime, image, key, wheels, python, platform, pipWheel, proxy, signal);
      await this.store.touch(key);
      await this.saveResolution(resolutionKey, key);
      return { path: `${LAYERS_MOUNT}/${key}`, key, reused: false, fetches: [...proxy.log] };
    } finally {
      proxy.server.close();
      await rm(socket, { force: true });
    }
  }

  private async install(
    runtime: PackageRuntime,
    image: string,
    key: string,
    wheels: { sha256: string; filename: string }[],
    python: string,
    platform: string,
    pipWheel: Buffer,
    proxy: IndexProxy,
    signal: AbortSignal,
  ): Promise<void> {
    const staged = await this.store.stage();
    // The set's wheels under their own names (pip reads tags from them), mounted read-only.
    const setDir = `${staged.dir}.wheels`;
    await mkdir(setDir, { mode: 0o755 });
    try {
      for (const w of wheels) await link(this.store.wheelPath(w.sha256), path.join(setDir, w.filename));
      // Past the cap the helper is stopped at once: nothing more arrives, nothing is kept.
      const stopHelper = new AbortController();
      const onAbort = () => stopHelper.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      // Loaded here, not with the module: tar is a fifth of the core's code and only an install needs it
      // (a cold `sandbar run` without packages never parses it).
      const { extractLayer } = await import('./layer-extract.js');
      const extraction = extractLayer(staged.dir, this.options.capBytes(), () => stopHelper.abort());
      const outcome = await this.step(
        runtime,
        image,
        'install',
        proxy,
        stopHelper.signal,
        {
          pipWheel,
          args: ['install', '--no-index', '--no-deps', '--ignore-requires-python', '--no-cache-dir', '--disable-pip-version-check', '--no-input', '--only-binary=:all:', '--target', '/tmp/layer', '--', ...wheels.map((w) => `/wheels/${w.filename}`)],
          tarFrom: '/tmp/layer',
        },
        undefined,
        [{ source: setDir, target: '/wheels' }],
        (chunk) => extraction.write(chunk),
      ).catch((err: unknown) => {
        if (!extraction.overCap) throw err;
        return null;
      }).finally(() => signal.removeEventListener('abort', onAbort));
      await extraction.finish();
      if (!outcome) throw new AppError('runtime_failed', 'The install helper stopped without an answer.');
      if (outcome.code !== 0) throw new AppError('runtime_failed', `Installing the packages failed: ${lastLines(outcome.output)}`);
      const manifest = await staged.commit({ key, wheels, python, platform });
      const usage = await this.store.usage();
      if (manifest.bytes > usage.capBytes) {
        await rm(this.store.layerPath(key), { recursive: true, force: true });
        throw new AppError('invalid_request', `The package cache is full: this set needs ${mb(manifest.bytes)} and packageCacheMB allows ${mb(usage.capBytes)}.`);
      }
      await this.store.collect([key]);
    } catch (err) {
      await staged.discard();
      throw err;
    } finally {
      await rm(setDir, { recursive: true, force: true });
    }
  }

  private async step(
    runtime: PackageRuntime,
    image: string,
    what: 'resolve' | 'install',
    proxy: IndexProxy,
    signal: AbortSignal,
    step: Parameters<typeof runPipStep>[2],
    proxySocket?: string,
    mounts: { source: string; target: string }[] = [],
    onTar?: (chunk: Buffer) => void,
  ): Promise<PipOutcome> {
    const base = runtime.baseSpec(image);
    const lifetimeSec = this.options.deadlineSec ?? PACKAGE_STEP_DEADLINE_SEC;
    const spec = pipSpec(
      {
        ...base,
        name: `sandbar-pkg-${what}-${randomBytes(6).toString('hex')}`,
        limits: { ...base.limits, ...HELPER_LIMITS },
        lifetime: { maxLifetimeSec: lifetimeSec },
        readOnlyMounts: mounts,
        env: { HOME: '/tmp', PYTHONUNBUFFERED: '1' },
      },
      lifetimeSec,
    );
    const release = await this.helpers.acquire(signal);
    let outcome: PipOutcome;
    try {
      outcome = await runPipStep(runtime, spec, step, {
        ...(proxySocket ? { proxySocket } : {}),
        ...(onTar ? { onTar } : {}),
        signal,
        kill: (name) => runtime.kill(name),
      });
    } finally {
      release();
    }
    if (what === 'resolve' && outcome.code !== 0) throw resolutionError(outcome, proxy);
    return outcome;
  }

  /** pip's own wheel, fetched once through the proxy (same checks as any package) and kept. */
  private async pipWheel(socket: string, proxy: IndexProxy): Promise<Buffer> {
    const marker = path.join(this.store.root, 'pip.json');
    try {
      const { sha256 } = JSON.parse(await readFile(marker, 'utf8')) as { sha256: string };
      const wheel = await this.store.getWheel(sha256);
      if (wheel) return wheel;
    } catch {
      // not fetched yet
    }
    const page = await getOverSocket(socket, '/simple/pip/');
    if (page.status !== 200) throw resolutionError({ code: 1, output: 'pip itself could not be fetched from the index', report: null }, proxy);
    const candidates = [...page.body.toString('utf8').matchAll(/href="\/files\/([0-9a-f]{64})\/(pip-([0-9.]+)-py3-none-any\.whl)#/g)]
      .map((m) => ({ sha256: m[1] ?? '', filename: decodeURIComponent(m[2] ?? ''), version: (m[3] ?? '').split('.').map(Number) }))
      .sort((a, b) => compareVersions(b.version, a.version));
    const newest = candidates[0];
    if (!newest) throw new AppError('runtime_failed', 'The package index has no pip wheel; Sandbar runs pip from its wheel to install packages.');
    const file = await getOverSocket(socket, `/files/${newest.sha256}/${encodeURIComponent(newest.filename)}`);
    if (file.status !== 200) throw resolutionError({ code: 1, output: `could not fetch ${newest.filename}`, report: null }, proxy);
    await writeFile(marker, JSON.stringify({ sha256: newest.sha256, filename: newest.filename }), { mode: 0o600 });
    return file.body;
  }

  private resolutionsFile(): string {
    return path.join(this.store.root, 'resolutions.json');
  }

  private async cachedResolution(key: string): Promise<Resolution | null> {
    if (!existsSync(this.resolutionsFile())) return null;
    try {
      const all = JSON.parse(await readFile(this.resolutionsFile(), 'utf8')) as Record<string, Resolution>;
      const hit = all[key];
      return hit && Date.now() - hit.at < RESOLUTION_TTL_MS ? hit : null;
    } catch {
      return null;
    }
  }

  private async saveResolution(key: string, layer: string | null): Promise<void> {
    let all: Record<string, Resolution> = {};
    try {
      all = JSON.parse(await readFile(this.resolutionsFile(), 'utf8')) as Record<string, Resolution>;
    } catch {
      // none yet, or unreadable: start afresh
    }
    const now = Date.now();
    for (const [k, v] of Object.entries(all)) if (now - v.at >= RESOLUTION_TTL_MS) delete all[k];
    all[key] = { at: now, key: layer };
    const temp = `${this.resolutionsFile()}.${randomBytes(4).toString('hex')}`;
    await writeFile(temp, JSON.stringify(all), { mode: 0o600 });
    const { rename } = await import('node:fs/promises');
    await rename(temp, this.resolutionsFile());
  }
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const lastLines = (text: string) => text.trim().split('\n').slice(-6).join('\n');

/** What pip's report says was chosen: each wheel by the sha256 in its proxy URL. */
function readReport(report: unknown): { wheels: { sha256: string; filename: string }[]; python: string; platform: string } {
  const r = report as { install?: { download_info?: { url?: string } }[]; environment?: Record<string, string> } | null;
  const wheels: { sha256: string; filename: string }[] = [];
  for (const item of r?.install ?? []) {
    const m = /\/files\/([0-9a-f]{64})\/([^/#?]+)/.exec(item.download_info?.url ?? '');
    if (!m) throw new AppError('runtime_failed', 'pip chose a file that did not come through Sandbar\'s index proxy');
    wheels.push({ sha256: m[1] ?? '', filename: decodeURIComponent(m[2] ?? '') });
  }
  const env = r?.environment ?? {};
  return { wheels, python: `${env.implementation_name ?? 'cpython'}${env.python_version ?? ''}`, platform: `${env.sys_platform ?? ''}-${env.platform_machine ?? ''}` };
}

/** The clearest reason a resolution failed: the proxy's own finding first, then pip's words. */
function resolutionError(outcome: PipOutcome, proxy: IndexProxy): AppError {
  const problem = proxy.firstProblem;
  if (problem?.detail) return new AppError('runtime_failed', `Packages: ${problem.detail}`);
  const sdistOnly = proxy.log.find((f) => f.kind === 'page' && f.detail);
  if (sdistOnly?.detail) return new AppError('invalid_request', `Packages: ${sdistOnly.detail}`);
  const notFound = proxy.log.find((f) => f.status === 'not_found');
  if (notFound?.detail) return new AppError('invalid_request', `Packages: ${notFound.detail}`);
  const noWheel = /No matching distribution found for (\S+)/.exec(outcome.output);
  if (noWheel) return new AppError('invalid_request', `Packages: no wheel of ${noWheel[1]} fits this image's Python and platform (Sandbar installs wheels only)`);
  return new AppError('runtime_failed', `Packages could not be resolved: ${lastLines(outcome.output)}`);
}

function getOverSocket(socketPath: string, urlPath: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: urlPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
