// One word for the whole app, as the tray shows it: ready, busy or broken (and why).
import type { EndpointInfo } from '../../shared/contract.js';
import type { HealthReport } from '../../shared/health.js';
import type { ConnectionStatus } from '../api/connection.js';

export type Overall = { state: 'ready' | 'busy' | 'broken' | 'offline' | 'unknown'; text: string };

export function overallStatus(input: {
  connection: ConnectionStatus;
  health: HealthReport | null;
  endpoint: EndpointInfo | null;
  running: number;
  queued: number;
}): Overall {
  if (input.connection === 'unauthorized') return { state: 'offline', text: 'Not authorised' };
  if (input.connection === 'reconnecting') return { state: 'offline', text: 'Reconnecting…' };
  if (input.connection === 'connecting') return { state: 'unknown', text: 'Connecting…' };
  if (input.health && !input.health.ok) {
    const failed = input.health.checks.filter((c) => c.status === 'fail').length;
    return { state: 'broken', text: failed > 0 ? `Not safe: ${failed} check${failed > 1 ? 's' : ''} failed` : 'Not safe to run code' };
  }
  if (input.endpoint && !input.endpoint.listening) return { state: 'broken', text: 'Endpoint down' };
  if (input.running + input.queued > 0) return { state: 'busy', text: 'Busy' };
  if (!input.health) return { state: 'unknown', text: 'Not checked yet' };
  return { state: 'ready', text: 'Ready' };
}
