// A RunService wired as core.ts wires it, over the fake backend: the real engine, session registry and
// approval broker; the user's MCP servers and the package index as small fakes behind their ports.
import { ApprovalBroker } from '../../../electron/proxy/approval-broker.js';
import type { PackageProvider, RunCaller, ServerCatalog } from '../../../electron/runs/ports.js';
import { RunService } from '../../../electron/runs/run-service.js';
import type { BackendFeatures } from '../../../electron/sandbox/backend.js';
import { Engine, type EngineConfig } from '../../../electron/sandbox/engine.js';
import { ToolCallDeniedError } from '../../../electron/sandbox/run/execution.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { engineSandboxes } from '../../../electron/sessions/engine-sandboxes.js';
import { SessionRegistry } from '../../../electron/sessions/session-registry.js';
import { FakeBackend } from './fake-backend.js';

export const ALICE: RunCaller = { client: { name: 'alice-client', version: '1.0', transport: 'http' }, credential: 'client-token:alice' };
export const BOB: RunCaller = { client: { name: 'bob-client', transport: 'http' }, credential: 'client-token:bob' };

/** A promise the test resolves by hand. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (err: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/**
 * Servers: `weather` (tool `now` answers, tool `guarded` asks a person first) and `mail`, denied. The
 * catalog's calls record what reached them.
 */
export function fakeCatalog(broker: ApprovalBroker, channelsFor: (runId: string) => ReturnType<RunService['channelsFor']>) {
  const known = ['weather', 'mail'];
  const denied = new Set(['mail']);
  const calls: { runId: string; server: string; tool: string; args: unknown }[] = [];
  const prepared: string[][] = [];
  const catalog: ServerCatalog = {
    refusal: (names) => {
      const bad = names.find((n) => !known.includes(n) || denied.has(n));
      if (bad === undefined) return null;
      return denied.has(bad) ? `MCP server '${bad}' is denied in Sandbar; allow it in the panel's Servers view to use it` : `Unknown MCP server: ${bad}`;
    },
    prepare: async (names) => {
      prepared.push([...names]);
      return { loaded: names.map((name) => ({ name, description: name, cwd: null, tools: [] })), discovered: [] };
    },
    rpcFor: (names) => async (payload, ctx) => {
      const server = String(payload.server);
      const tool = String(payload.tool);
      if (!names.includes(server)) throw new Error(`Server '${server}' is not available`);
      if (tool === 'guarded') {
        const { allowed } = await broker.request({ runId: ctx.executionId, server, tool, args: {} }, { channels: channelsFor(ctx.executionId), signal: ctx.signal });
        if (!allowed) throw new ToolCallDeniedError(`${server}/${tool} was denied`);
      }
      calls.push({ runId: ctx.executionId, server, tool, args: payload.arguments });
      return { result: { content: [{ type: 'text', text: `${tool} from ${server}` }] } };
    },
  };
  return { catalog, calls, prepared };
}

export interface RunFixtureOptions {
  features?: Partial<BackendFeatures>;
  config?: Partial<EngineConfig>;
  /** A one-shot command keeps no sessions. */
  sessions?: boolean;
  packages?: PackageProvider['prepare'];
  maxCodeBytes?: number;
}

export async function runFixture(options: RunFixtureOptions = {}) {
  const gate = deferred();
  const backend = new FakeBackend(options.features, { gate: () => gate.promise });
  const engine = new Engine(backend, { ...DEFAULT_ENGINE_CONFIG, image: 'fake:latest', poolSize: 0, ...options.config });
  const broker = new ApprovalBroker({ timeoutMs: () => 5000, allowAlways: () => {} });
  const packageCalls: string[][] = [];
  const sessions =
    options.sessions === false ? undefined : new SessionRegistry(engineSandboxes(engine), () => ({ idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 }), { memoryLimit: () => '512m' });
  // The closure reads `runs` at call time, as core.ts's server manager does.
  const servers = fakeCatalog(broker, (runId) => runs.channelsFor(runId));
  const runs: RunService = new RunService({
    engine,
    servers: servers.catalog,
    packages: {
      prepare: (requirements, signal) => {
        packageCalls.push([...requirements]);
        return options.packages ? options.packages(requirements, signal) : Promise.resolve({ path: '/opt/sandbar/layers/abc', key: 'abc', reused: false, fetches: [] });
      },
    },
    ...(sessions ? { sessions } : {}),
    approvals: broker,
    maxCodeBytes: () => options.maxCodeBytes ?? 256 * 1024,
  });
  await engine.start();
  return {
    runs,
    engine,
    backend,
    broker,
    sessions,
    servers,
    packageCalls,
    /** Lets every script that `wait`s go on. */
    open: () => gate.resolve(),
    async dispose() {
      gate.resolve();
      sessions?.dispose();
      await engine.dispose(100);
    },
  };
}
