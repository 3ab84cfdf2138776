// The run use case, in one place for every surface (MCP on both revisions, the panel's Re-run, `sandbar
// run`): the refusals, session admission, the servers and packages prepared at the same time, the run's
// places to ask about its tool calls, the engine's submit, and the result with its session. A new run
// feature belongs here (and in the engine), not in the surfaces.
import { errorMessage } from '../../shared/errors.js';
import type { PendingApproval } from '../../shared/approvals.js';
import type { SandboxMcpContext } from '../../shared/proxy.js';
import type { SessionCall } from '../sessions/session-registry.js';
import type { ApprovalAsk, ApprovalQueue, PackageProvider, RunCaller, RunEngine, RunEvents, RunHooks, RunRequest, RunResult, RunTicket, ServerCatalog, SessionAdmission } from './ports.js';
import { codeSizeRefusal, packagesRefusal, RunRefused } from './run-refusal.js';

export interface RunServiceOptions {
  engine: RunEngine;
  servers: ServerCatalog;
  packages: PackageProvider;
  sessions?: SessionAdmission;
  approvals: ApprovalQueue;
  /** Read on every run: a smaller limit saved in the panel applies to the next one. */
  maxCodeBytes: () => number;
}

type Prepared = Awaited<ReturnType<PackageProvider['prepare']>>;

export class RunService {
  /** Admitted runs still installing their packages: they count toward the engine's queue limit. */
  private preparing = 0;
  /** Places to ask about each run's tool calls besides the panel and the tray (the broker asks them all). */
  private readonly asks = new Map<string, ApprovalAsk[]>();

  constructor(private readonly options: RunServiceOptions) {}

  /** The engine's events, for a surface that follows its run (progress). */
  get events(): RunEvents {
    return this.options.engine;
  }

  /** The places to ask about this run's tool calls (the proxy's approval gate reads them). */
  channelsFor(runId: string): ApprovalAsk[] {
    return this.asks.get(runId) ?? [];
  }

  /** The question this run's code is waiting on, if any (progress says so). */
  pendingApproval(runId: string): PendingApproval | undefined {
    return this.options.approvals.list().find((a) => a.runId === runId);
  }

  /** Refusals reject with RunRefused (before anything ran); a run the engine turns away resolves like any other. */
  async start(request: RunRequest, caller: RunCaller, hooks: RunHooks = {}): Promise<RunTicket> {
    const { engine } = this.options;
    const servers = [...new Set(request.servers ?? [])];
    const requirements = [...(request.packages ?? [])];
    const tooLarge = codeSizeRefusal(request.code, this.options.maxCodeBytes());
    if (tooLarge) throw new RunRefused('validation', tooLarge);
    const badPackages = packagesRefusal(requirements);
    if (badPackages) throw new RunRefused('validation', badPackages);
    const serverRefusal = this.options.servers.refusal(servers);
    if (serverRefusal) throw new RunRefused('refused', serverRefusal);
    const features = engine.backend.features;
    if (requirements.length > 0 && !features.packages) {
      throw new RunRefused('refused', `Packages are not available with the ${features.label} runtime: bake them into the image.`);
    }
    const open = request.session === undefined ? undefined : this.admitSession(request.session, caller);
    const session = open ? { id: open.id, call: open.call } : undefined;
    const base = {
      code: request.code,
      servers,
      client: caller.client,
      ...(request.timeoutSec !== undefined ? { timeoutSec: request.timeoutSec } : {}),
      ...(session ? { session } : {}),
    };
    const submitOptions = { ...(hooks.signal ? { signal: hooks.signal } : {}), ...(open ? { session: open.binding } : {}) };
    // Busy, paused or shutting down: turned away now, in the engine's words, before any server starts or
    // any package installs (the engine records it like every other run).
    if (engine.refusal(this.preparing) !== null) {
      return this.ticket(engine.submit({ ...base, context: {} }, { ...submitOptions, alsoWaiting: this.preparing }), open, hooks);
    }
    let mcp: SandboxMcpContext;
    let prepared: Prepared | null;
    if (requirements.length > 0) this.preparing++;
    try {
      // Servers start and packages install at the same time; neither counts against the run's timeout.
      [mcp, prepared] = await Promise.all([
        this.options.servers.prepare(servers),
        requirements.length > 0 ? this.options.packages.prepare(requirements, hooks.signal) : Promise.resolve(null),
      ]);
    } catch (err) {
      open?.abandon();
      throw new RunRefused('refused', errorMessage(err), { cause: err });
    } finally {
      if (requirements.length > 0) this.preparing--;
    }
    const context = { mcp, ...(prepared?.path ? { packages: prepared.path } : {}) };
    const packages = prepared ? { packages: { requirements, layer: prepared.key, reused: prepared.reused, fetches: prepared.fetches } } : {};
    const handle = engine.submit(
      { ...base, context, ...packages },
      { ...submitOptions, rpc: this.options.servers.rpcFor(servers), alsoWaiting: this.preparing },
    );
    return this.ticket(handle, open, hooks);
  }

  private admitSession(requested: string, caller: RunCaller): Extract<SessionCall, { ok: true }> {
    const sessions = this.options.sessions;
    if (!sessions) throw new RunRefused('refused', 'session is not available here: this Sandbar runs one call and exits. Run without session.');
    const key = caller.credential ?? 'stdio:unknown';
    const admitted = sessions.begin({ key, client: { name: caller.client.name, version: caller.client.version ?? null } }, requested);
    if (!admitted.ok) throw new RunRefused('refused', admitted.message);
    return admitted;
  }

  private ticket(handle: { id: string; result: Promise<RunResult['execution']> }, open: Extract<SessionCall, { ok: true }> | undefined, hooks: RunHooks): RunTicket {
    const { id } = handle;
    open?.attach(id);
    if (hooks.ask) this.asks.set(id, [hooks.ask]);
    const sessions = this.options.sessions;
    const result = handle.result.then(
      (execution): RunResult => (open && sessions ? { execution, session: sessions.resultInfo(open.id) } : { execution }),
    );
    void result.finally(() => this.asks.delete(id)).catch(() => {});
    return { id, result, ...(open ? { session: { id: open.id, call: open.call } } : {}) };
  }
}
