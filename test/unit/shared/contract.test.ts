// Pins the control contract: every method's arguments and result type, every event's payload. A change
// to shared/contract.ts that is not made here too fails the type check (npm test runs tsc over tests).
import type { ApprovalDecision, ApprovalOutcome, PendingApproval } from '../../../shared/approvals.js';
import type { SessionInfo } from '../../../shared/sessions.js';
import type { EgressRecord } from '../../../shared/egress-audit.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EVENT_NAMES,
  METHOD_NAMES,
  methods,
  type ClientChangePreview,
  type ClientChangeResult,
  type ClientView,
  type EndpointInfo,
  type Events,
  type FinishedExecution,
  type ArtifactBytes,
  type HistoryFacets,
  type ImagePullProgress,
  type LiveSnapshot,
  type MethodArgs,
  type MethodResult,
  type OutputBuffer,
  type ServerView,
  type SettingsChange,
  type SettingsView,
} from '../../../shared/contract.js';
import type { EngineEvent, PoolState, ToolCallRecord } from '../../../shared/execution.js';
import type { HealthReport, RuntimeTier } from '../../../shared/health.js';
import type { HistoryDetail, HistoryPage } from '../../../shared/history.js';
import type { ToolInfo } from '../../../shared/proxy.js';

type Id = { id: string };
type Name = { name: string };
type Change = { id: 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'windsurf'; action: 'add' | 'remove' };
type None = Record<string, never>;

describe('the control contract (pinned)', () => {
  it('pins every method: arguments in, result out', () => {
    expectTypeOf<MethodArgs<'executions.list'>>().toEqualTypeOf<{ limit?: number; cursor?: string; status?: string[]; client?: string; server?: string; from?: number; to?: number; search?: string }>();
    expectTypeOf<MethodResult<'executions.list'>>().toEqualTypeOf<HistoryPage>();
    expectTypeOf<MethodArgs<'executions.get'>>().toEqualTypeOf<Id>();
    expectTypeOf<MethodResult<'executions.get'>>().toEqualTypeOf<HistoryDetail | null>();
    expectTypeOf<MethodArgs<'executions.facets'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'executions.facets'>>().toEqualTypeOf<HistoryFacets>();
    expectTypeOf<MethodArgs<'executions.artifact'>>().toEqualTypeOf<{ runId: string; name: string }>();
    expectTypeOf<MethodResult<'executions.artifact'>>().toEqualTypeOf<ArtifactBytes>();
    expectTypeOf<MethodArgs<'executions.cancel'>>().toEqualTypeOf<Id>();
    expectTypeOf<MethodResult<'executions.cancel'>>().toEqualTypeOf<{ cancelled: boolean }>();
    expectTypeOf<MethodArgs<'executions.rerun'>>().toEqualTypeOf<Id>();
    expectTypeOf<MethodResult<'executions.rerun'>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<MethodArgs<'live.snapshot'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'live.snapshot'>>().toEqualTypeOf<LiveSnapshot>();
    expectTypeOf<MethodArgs<'live.setPaused'>>().toEqualTypeOf<{ paused: boolean }>();
    expectTypeOf<MethodResult<'live.setPaused'>>().toEqualTypeOf<{ paused: boolean }>();
    expectTypeOf<MethodArgs<'output.subscribe'>>().toEqualTypeOf<Id>();
    expectTypeOf<MethodResult<'output.subscribe'>>().toEqualTypeOf<OutputBuffer | null>();
    expectTypeOf<MethodArgs<'output.unsubscribe'>>().toEqualTypeOf<Id>();
    expectTypeOf<MethodResult<'output.unsubscribe'>>().toEqualTypeOf<{ ok: true }>();
    expectTypeOf<MethodArgs<'settings.get'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'settings.get'>>().toEqualTypeOf<SettingsView>();
    expectTypeOf<MethodArgs<'settings.update'>>().toEqualTypeOf<{ patch: Record<string, unknown> }>();
    expectTypeOf<MethodResult<'settings.update'>>().toEqualTypeOf<SettingsChange>();
    expectTypeOf<MethodArgs<'settings.previewFlags'>>().toEqualTypeOf<{ limits: Record<string, unknown> }>();
    expectTypeOf<MethodResult<'settings.previewFlags'>>().toEqualTypeOf<{ argv: string[] }>();
    expectTypeOf<MethodArgs<'folders.pick'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'folders.pick'>>().toEqualTypeOf<{ path: string | null }>();
    expectTypeOf<MethodArgs<'health.get'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'health.get'>>().toEqualTypeOf<HealthReport | null>();
    expectTypeOf<MethodArgs<'health.probe'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'health.probe'>>().toEqualTypeOf<HealthReport>();
    expectTypeOf<MethodArgs<'health.tiers'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'health.tiers'>>().toEqualTypeOf<RuntimeTier[]>();
    expectTypeOf<MethodArgs<'image.pull'>>().toEqualTypeOf<{ image?: string }>();
    expectTypeOf<MethodResult<'image.pull'>>().toEqualTypeOf<{ started: boolean; image: string }>();
    expectTypeOf<MethodArgs<'servers.list'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'servers.list'>>().toEqualTypeOf<ServerView[]>();
    expectTypeOf<MethodArgs<'servers.tools'>>().toEqualTypeOf<Name>();
    expectTypeOf<MethodResult<'servers.tools'>>().toEqualTypeOf<ToolInfo[]>();
    expectTypeOf<MethodArgs<'servers.allow'>>().toEqualTypeOf<Name>();
    expectTypeOf<MethodResult<'servers.allow'>>().toEqualTypeOf<ServerView[]>();
    expectTypeOf<MethodArgs<'servers.deny'>>().toEqualTypeOf<Name>();
    expectTypeOf<MethodResult<'servers.deny'>>().toEqualTypeOf<ServerView[]>();
    expectTypeOf<MethodArgs<'servers.restart'>>().toEqualTypeOf<Name>();
    expectTypeOf<MethodResult<'servers.restart'>>().toEqualTypeOf<ServerView[]>();
    expectTypeOf<MethodArgs<'clients.detect'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'clients.detect'>>().toEqualTypeOf<ClientView[]>();
    expectTypeOf<MethodArgs<'clients.preview'>>().toEqualTypeOf<Change>();
    expectTypeOf<MethodResult<'clients.preview'>>().toEqualTypeOf<ClientChangePreview>();
    expectTypeOf<MethodArgs<'clients.configure'>>().toEqualTypeOf<Change>();
    expectTypeOf<MethodResult<'clients.configure'>>().toEqualTypeOf<ClientChangeResult>();
    expectTypeOf<MethodArgs<'endpoint.info'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'endpoint.info'>>().toEqualTypeOf<EndpointInfo>();
    expectTypeOf<MethodResult<'endpoint.token'>>().toEqualTypeOf<{ token: string }>();
    expectTypeOf<MethodResult<'endpoint.rotateToken'>>().toEqualTypeOf<{ token: string }>();
    expectTypeOf<MethodArgs<'approvals.list'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'approvals.list'>>().toEqualTypeOf<PendingApproval[]>();
    expectTypeOf<MethodArgs<'approvals.decide'>>().toEqualTypeOf<{ id: string; decision: ApprovalDecision; via?: 'panel' | 'cli' | 'tray' | undefined }>();
    expectTypeOf<MethodResult<'approvals.decide'>>().toEqualTypeOf<{ decided: boolean }>();
    expectTypeOf<MethodArgs<'sessions.list'>>().toEqualTypeOf<None>();
    expectTypeOf<MethodResult<'sessions.list'>>().toEqualTypeOf<SessionInfo[]>();
    expectTypeOf<MethodArgs<'sessions.close'>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<MethodResult<'sessions.close'>>().toEqualTypeOf<{ closed: boolean }>();
    // 33 methods, each pinned above.
    expect(METHOD_NAMES).toHaveLength(33);
  });

  it('pins every event payload', () => {
    expectTypeOf<Events['execution.queued']>().toEqualTypeOf<Extract<EngineEvent, { type: 'queued' }>>();
    expectTypeOf<Events['execution.started']>().toEqualTypeOf<Extract<EngineEvent, { type: 'started' }>>();
    expectTypeOf<Events['execution.finished']>().toEqualTypeOf<{ result: FinishedExecution }>();
    expectTypeOf<Events['execution.toolCall']>().toEqualTypeOf<{ call: ToolCallRecord }>();
    expectTypeOf<Events['execution.stats']>().toEqualTypeOf<{ samples: { id: string; memoryBytes: number }[] }>();
    expectTypeOf<Events['output.chunk']>().toEqualTypeOf<{ id: string; stdout: string; stderr: string }>();
    expectTypeOf<Events['live.changed']>().toEqualTypeOf<{ paused: boolean; pool: PoolState; running: number; queued: number }>();
    expectTypeOf<Events['health.changed']>().toEqualTypeOf<HealthReport>();
    expectTypeOf<Events['settings.changed']>().toEqualTypeOf<SettingsChange>();
    expectTypeOf<Events['server.state']>().toEqualTypeOf<{ servers: ServerView[] }>();
    expectTypeOf<Events['image.pullProgress']>().toEqualTypeOf<ImagePullProgress>();
    expectTypeOf<Events['endpoint.changed']>().toEqualTypeOf<EndpointInfo>();
    expectTypeOf<Events['approvals.changed']>().toEqualTypeOf<{ pending: PendingApproval[]; last?: ApprovalOutcome }>();
    expectTypeOf<Events['sessions.changed']>().toEqualTypeOf<{ sessions: SessionInfo[] }>();
    expectTypeOf<Events['execution.egress']>().toEqualTypeOf<{ id: string; record: EgressRecord }>();
    expect(EVENT_NAMES).toHaveLength(15);
  });

  it('the name lists are exactly the maps (the preload is built from the lists)', () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(methods).sort());
    expect(new Set(EVENT_NAMES).size).toBe(EVENT_NAMES.length);
  });

  it('arguments are strict: unknown keys and wrong types are refused with the field named', () => {
    expect(methods['live.setPaused'].args.safeParse({ paused: true, extra: 1 }).success).toBe(false);
    expect(methods['executions.list'].args.safeParse({ sneaky: 1 }).success).toBe(false);
    expect(methods['live.snapshot'].args.safeParse({ x: 1 }).success).toBe(false);
    const bad = methods['executions.list'].args.safeParse({ limit: 5000 });
    expect(bad.success ? null : bad.error.issues[0]!.path).toEqual(['limit']);
    expect(methods['clients.configure'].args.safeParse({ id: 'notepad', action: 'add' }).success).toBe(false);
    expect(methods['executions.get'].args.safeParse({ id: '' }).success).toBe(false);
  });

  it('history queries refuse control characters and long status lists with a field error, not an internal one', () => {
    const list = methods['executions.list'].args;
    for (const bad of [{ search: 'pan\u0000das' }, { search: '\u001b[2J' }, { client: 'x\u009b' }, { status: Array.from({ length: 17 }, () => 'error') }]) {
      const parsed = list.safeParse(bad);
      expect(parsed.success, JSON.stringify(bad)).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]!.path[0]).toBe(Object.keys(bad)[0]);
    }
    expect(list.safeParse({ search: 'tab\tand\nnewline', status: ['error'] }).success).toBe(true);
  });

  it('image.pull takes only an image reference, and endpoint tokens default to the client one', () => {
    expect(methods['image.pull'].args.safeParse({ image: '--privileged' }).success).toBe(false);
    expect(methods['image.pull'].args.safeParse({ image: 'python:3.12' }).success).toBe(true);
    expect(methods['endpoint.token'].args.parse({})).toEqual({ kind: 'client' });
    expect(methods['endpoint.rotateToken'].args.safeParse({ kind: 'admin' }).success).toBe(false);
  });
});
