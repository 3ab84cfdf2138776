// The contract's names alone, without its schemas: what the sandboxed preload needs, so the bundle that
// runs in the renderer carries no zod. contract.ts checks at compile time that these match its maps.

export const METHOD_NAMES = [
  'executions.list',
  'executions.get',
  'executions.facets',
  'executions.artifact',
  'executions.cancel',
  'executions.rerun',
  'live.snapshot',
  'live.setPaused',
  'output.subscribe',
  'output.unsubscribe',
  'settings.get',
  'settings.update',
  'settings.previewFlags',
  'folders.pick',
  'health.get',
  'health.probe',
  'health.tiers',
  'image.pull',
  'servers.list',
  'servers.tools',
  'servers.allow',
  'servers.deny',
  'servers.restart',
  'clients.detect',
  'clients.preview',
  'clients.configure',
  'endpoint.info',
  'endpoint.token',
  'endpoint.rotateToken',
  'approvals.list',
  'approvals.decide',
  'sessions.list',
  'sessions.close',
] as const;

export const EVENT_NAMES = [
  'execution.queued',
  'execution.started',
  'execution.finished',
  'execution.toolCall',
  'execution.stats',
  'output.chunk',
  'live.changed',
  'health.changed',
  'settings.changed',
  'server.state',
  'image.pullProgress',
  'endpoint.changed',
  'approvals.changed',
  'sessions.changed',
  'execution.egress',
] as const;

/** IPC channel names, derived so nobody spells them twice. */
export const ipcChannel = {
  call: (method: (typeof METHOD_NAMES)[number]) => `sandbar:call:${method}`,
  event: 'sandbar:event',
} as const;
