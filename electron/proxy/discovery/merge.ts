// Combines the sources in precedence order: first definition of a name wins, and Sandbar never proxies
// to itself unless the person asked for it.
import type { DiscoveryResult } from '../../../shared/proxy.js';
import { emptyResult } from './parse-config.js';
import { selfReference } from './self-reference.js';

export function mergeSources(sources: DiscoveryResult[], options: { allowSelf: boolean; ownPort: number | null }): DiscoveryResult {
  const result = emptyResult();
  const winners = new Map<string, string>();
  for (const source of sources) {
    result.problems.push(...source.problems);
    // Skipped entries (disabled, invalid) do not claim their name: a working definition elsewhere still loads.
    result.skipped.push(...source.skipped);
    for (const server of source.servers) {
      const self = options.allowSelf ? null : selfReference(server, options.ownPort);
      const winner = winners.get(server.name);
      if (self !== null) {
        result.skipped.push({ name: server.name, source: server.source, reason: 'self-reference', detail: self });
      } else if (winner !== undefined) {
        result.skipped.push({ name: server.name, source: server.source, reason: 'duplicate', detail: `Already defined in ${winner}.` });
      } else {
        winners.set(server.name, server.source);
        result.servers.push(server);
      }
    }
  }
  return result;
}
