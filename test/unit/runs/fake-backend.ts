// A sandbox backend in this process, with no containers: each sandbox is a FakeAgentProcess booted by the
// real bootSandbox, so the engine, the frame channel and the run are the product's own. Its features are
// the test's to choose (a backend that cannot pause, or mount packages).
import { randomBytes } from 'node:crypto';
import {
  allLimitsEnforced,
  newOwner,
  type BackendFeatures,
  type BackendHealth,
  type ContainerSpec,
  type SandboxBackend,
  type SandboxExit,
  type StartOptions,
} from '../../../electron/sandbox/backend.js';
import { bootSandbox } from '../../../electron/sandbox/run/boot-sandbox.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { FakeAgentProcess, type FakeAgentOptions } from './fake-agent.js';

export const FAKE_FEATURES: BackendFeatures = {
  label: 'Fake',
  pause: true,
  packages: true,
  checkpoints: { runc: true, runsc: 'not on this backend' }, // the fake agent reports none made
  folders: { readOnly: 'not on this backend', writable: 'not on this backend' },
  egress: false,
  lifetimeBackstop: true,
  limits: allLimitsEnforced(),
};

export class FakeBackend implements SandboxBackend {
  readonly kind = 'podman' as const;
  readonly owner = newOwner();
  readonly features: BackendFeatures;
  /** Every sandbox made, by name (tests look at what the agent was sent). */
  readonly sandboxes = new Map<string, FakeAgentProcess>();
  readonly paused = new Set<string>();

  constructor(
    features: Partial<BackendFeatures> = {},
    private readonly agent: FakeAgentOptions = {},
  ) {
    this.features = { ...FAKE_FEATURES, ...features };
  }

  async create(_spec: ContainerSpec, options: StartOptions & { warm?: boolean } = {}): Promise<SandboxContainer> {
    const name = `fake-${randomBytes(4).toString('hex')}`;
    const proc = new FakeAgentProcess(this.agent);
    this.sandboxes.set(name, proc);
    return bootSandbox(name, proc, { idleTimeoutSec: options.idleTimeoutSec ?? 600, modules: {} });
  }

  async kill(names: readonly string[]): Promise<void> {
    for (const name of names) this.sandboxes.get(name)?.kill();
  }

  async wait(name: string): Promise<SandboxExit> {
    const exit = await this.sandboxes.get(name)?.exited;
    return { exitCode: exit?.exitCode ?? null, reason: exit?.exitCode === 0 ? 'completed' : 'error' };
  }

  async pause(name: string): Promise<void> {
    this.paused.add(name);
  }

  async resume(name: string): Promise<void> {
    this.paused.delete(name);
  }

  async stats(): Promise<{ name: string; memoryBytes: number }[]> {
    return [];
  }

  async describe(_spec: ContainerSpec, name: string): Promise<string[]> {
    return ['fake', name];
  }

  async listOwned(): Promise<[]> {
    return [];
  }

  async capabilities(): Promise<never> {
    throw new Error('the fake backend is not probed');
  }

  async probe(): Promise<{ ok: false; error: string }> {
    return { ok: false, error: 'the fake backend is not probed' };
  }

  async health(spec: ContainerSpec): Promise<BackendHealth> {
    return { runtime: null, runtimeError: 'fake', image: { name: spec.image, present: false }, probe: null };
  }

  async quickHealth(): Promise<{ runtime: boolean; image: boolean }> {
    return { runtime: true, image: true };
  }
}
