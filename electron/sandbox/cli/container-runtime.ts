// The container runtime as the engine sees it: found lazily, described once found, and driven through
// its CLI. A runtime that is missing now is looked for again on the next call, so installing one later
// needs no restart.
import { AppError, errorMessage } from '../../../shared/errors.js';
import { exitFromCode, type SandboxExit, type ContainerMemory, type OwnedContainer } from '../backend.js';
import { runCommand, runStreaming, spawnAttached } from './command.js';
import { type AttachedProcess } from '../run/attached-process.js';
import { parseStats } from './container-stats.js';
import { LABEL_HOST, LABEL_INSTANCE, LABEL_PID, assertImageReference } from '../sandbox-spec.js';
import { containerUlimits, readHostHardLimits } from './host-limits.js';
import { OciFreezer } from './oci-freezer.js';
import { infoArgs, parseInfo, type RuntimeFacts, type RuntimeInfo } from './runtime-info.js';
import { findOciRuntimes, locateRuntime, NO_RUNTIME_MESSAGE } from './runtime-locator.js';
import type { RuntimeFactsCache } from './runtime-facts-cache.js';

export type { RuntimeInfo } from './runtime-info.js';


export class ContainerRuntime {
  private readonly freezer = new OciFreezer(async () => {
    const info = await this.resolve().catch(() => null);
    return info ? { name: info.name, path: info.path } : null;
  });
  private info: RuntimeInfo | undefined;
  private resolving: Promise<RuntimeInfo> | undefined;

  constructor(
    private options: {
      env: NodeJS.ProcessEnv;
      platform: NodeJS.Platform;
      choice?: { value: string; label: string };
      /** One-shot commands reuse a fresh `info` answer instead of asking the runtime again. */
      factsCache?: RuntimeFactsCache;
    },
  ) {}

  /** The user picked another runtime (settings): found again on next use. */
  choose(choice: { value: string; label: string } | undefined): void {
    const { choice: _old, ...rest } = this.options;
    this.options = choice ? { ...rest, choice } : rest;
    this.reset();
  }

  /** Detects the runtime on first need; throws AppError('runtime_not_found') with install advice. */
  async resolve(): Promise<RuntimeInfo> {
    if (this.info) return this.info;
    this.resolving ??= this.detect().finally(() => {
      this.resolving = undefined;
    });
    return this.resolving;
  }

  /** What is known without probing (undefined before the first successful resolve). */
  current(): RuntimeInfo | undefined {
    return this.info;
  }

  /** Forget what was detected (after the user installs or switches runtimes). */
  reset(): void {
    this.info = undefined;
  }

  private async detect(): Promise<RuntimeInfo> {
    const located = locateRuntime(this.options);
    if (!located) throw new AppError('runtime_not_found', NO_RUNTIME_MESSAGE);
    const cached = this.options.factsCache?.load(located);
    if (cached) {
      this.info = { ...cached, ...located };
      return this.info;
    }
    const result = await runCommand(located.path, infoArgs(located.name), { timeoutMs: 30_000 });
    if (result.exitCode !== 0) {
      const why = result.spawnError ?? (result.stderr.trim() || `exit code ${result.exitCode}`);
      throw new AppError('runtime_failed', `${located.name} is installed but not working: ${why}`);
    }
    let facts: RuntimeFacts;
    try {
      facts = parseInfo(located.name, result.stdout);
    } catch (err) {
      throw new AppError('runtime_failed', `Could not read \`${located.name} info\`: ${errorMessage(err)}`);
    }
    this.info = {
      ...located,
      ...facts,
      ulimits: containerUlimits(readHostHardLimits()),
      availableOciRuntimes: findOciRuntimes({ env: this.options.env, platform: this.options.platform }),
    };
    this.options.factsCache?.save(this.info);
    return this.info;
  }

  /** Switch to another OCI runtime for all later containers, and remember why for the health view. */
  forceOciRuntime(name: string, note: string): void {
    if (!this.info) return;
    this.info = { ...this.info, ociRuntime: name, ociRuntimeOverride: name, ociRuntimeNote: note };
  }

  async spawn(args: readonly string[]): Promise<AttachedProcess> {
    const info = await this.resolve();
    return spawnAttached(info.path, args);
  }

  async imageExists(image: string): Promise<boolean> {
    const info = await this.resolve();
    assertImageReference(image);
    const args = info.name === 'podman' ? ['image', 'exists', '--', image] : ['image', 'inspect', '--format', '{{.Id}}', '--', image];
    const result = await runCommand(info.path, args, { timeoutMs: 30_000 });
    return result.exitCode === 0;
  }

  /** The local image's id (what a per-image cache is keyed by); null when it is not present. */
  async imageId(image: string): Promise<string | null> {
    const info = await this.resolve();
    assertImageReference(image);
    const result = await runCommand(info.path, ['image', 'inspect', '--format', '{{.Id}}', '--', image], { timeoutMs: 30_000 });
    const id = result.stdout.trim();
    return result.exitCode === 0 && /^[A-Za-z0-9:]+$/.test(id) ? id : null;
  }

  /** SIGKILL by name, then make sure it is gone. Missing containers are not an error. */
  async killAndRemove(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    for (const name of names) this.freezer.forget(name);
    const info = await this.resolve();
    await runCommand(info.path, ['rm', '--force', ...(info.name === 'podman' ? ['--time', '0', '--ignore'] : ['--volumes']), '--', ...names], {
      timeoutMs: 30_000,
    });
  }

  async kill(name: string): Promise<void> {
    const info = await this.resolve();
    await runCommand(info.path, ['kill', '--signal', 'KILL', '--', name], { timeoutMs: 15_000 });
  }

  /** Through the OCI runtime where that is proven to work (see oci-freezer.ts), else the CLI's own pause. */
  async pause(name: string): Promise<void> {
    if (process.platform === 'linux' && (await this.freezer.toggle(name, 'pause'))) return;
    await this.expectOk(['pause', name], `Pausing ${name}`);
  }

  async resume(name: string): Promise<void> {
    if (process.platform === 'linux' && (await this.freezer.toggle(name, 'resume'))) return;
    await this.expectOk(['unpause', name], `Resuming ${name}`);
  }

  /** Blocks until the container exits; its code is the exit code (`--rm` containers are gone after). */
  async wait(name: string): Promise<SandboxExit> {
    const info = await this.resolve();
    const result = await runCommand(info.path, ['wait', name], { timeoutMs: 24 * 3600_000 });
    if (result.exitCode !== 0) return { exitCode: null, reason: 'unknown', detail: result.stderr.trim() };
    const code = Number(result.stdout.trim().split('\n').at(-1));
    return exitFromCode(Number.isInteger(code) ? code : null);
  }

  private async expectOk(args: string[], what: string): Promise<void> {
    const info = await this.resolve();
    const result = await runCommand(info.path, args, { timeoutMs: 30_000 });
    if (result.exitCode !== 0) throw new AppError('runtime_failed', `${what} failed: ${result.spawnError ?? result.stderr.trim()}`);
  }

  /** Memory in use by these running containers; containers that are gone are left out. */
  async memoryUsage(names: readonly string[]): Promise<ContainerMemory[]> {
    if (names.length === 0) return [];
    const info = await this.resolve();
    const format = info.name === 'podman' ? 'json' : '{{json .}}';
    const result = await runCommand(info.path, ['stats', '--no-stream', '--format', format, '--', ...names], { timeoutMs: 10_000 });
    // One container may have ended between listing and sampling: the others still count.
    return parseStats(result.stdout);
  }

  /**
   * Pulls an image, reporting the runtime's progress lines as they come. Resolves when done; throws an
   * AppError with the runtime's message when the pull fails.
   */
  async pullImage(image: string, onLine: (line: string) => void, signal?: AbortSignal): Promise<void> {
    const info = await this.resolve();
    assertImageReference(image);
    const result = await runStreaming(info.path, ['pull', '--', image], onLine, { timeoutMs: 30 * 60_000, ...(signal ? { signal } : {}) });
    if (result.exitCode !== 0) {
      const why = result.spawnError ?? (pullFailure(result.stderr) || `exit code ${result.exitCode}`);
      throw new AppError('runtime_failed', `Pulling ${image} failed: ${why}`);
    }
  }

  /** Every container any Sandbar instance started, running or not. */
  async listOwned(): Promise<OwnedContainer[]> {
    const info = await this.resolve();
    const result = await runCommand(
      info.path,
      ['ps', '--all', '--filter', `label=${LABEL_INSTANCE}`, '--format', '{{.Names}}\t{{.State}}\t{{.Labels}}'],
      { timeoutMs: 30_000 },
    );
    if (result.exitCode !== 0) throw new AppError('runtime_failed', `Listing containers failed: ${result.stderr.trim()}`);
    return result.stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => parseOwnedLine(line));
  }
}

/** `ps` prints labels as `map[k:v k2:v2]` (podman) or `k=v,k2=v2` (docker). */
export function parseOwnedLine(line: string): OwnedContainer {
  const [name = '', state = '', labelText = ''] = line.split('\t');
  const labels = new Map<string, string>();
  const body = labelText.replace(/^map\[/, '').replace(/\]$/, '');
  for (const pair of body.split(/[ ,]/)) {
    const m = /^([^=:]+)[=:](.*)$/.exec(pair);
    if (m) labels.set(m[1]!, m[2]!);
  }
  const pid = Number(labels.get(LABEL_PID));
  return {
    name: name.trim(),
    state: state.trim(),
    instanceId: labels.get(LABEL_INSTANCE) ?? '',
    pid: Number.isInteger(pid) && pid > 0 ? pid : null,
    host: labels.get(LABEL_HOST) ?? '',
  };
}

/** The runtime's own final error line ("Error: …"), else its last line: retries and warnings are noise. */
function pullFailure(text: string): string {
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const error = lines.findLast((l) => /^Error:/i.test(l));
  return (error ?? lines.at(-1) ?? '').replace(/^Error:\s*/i, '');
}
