// The dev fake API's egress connections: a finished run's (History's detail, Live's latest), and what a
// running run reports over time (each connection as decided, then as it ends). Some strings carry escape
// and bidi characters on purpose, as hostile code could send them, to show they are sanitised.
import type { EgressRecord } from '../../shared/egress-audit.js';

export const FAKE_EGRESS: EgressRecord[] = [
  { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 1_840, bytesIn: 52_311, secret: 'API_KEY', method: 'GET', path: '/v1/items', status: 200 },
  { host: 'files.example.org', port: 443, decision: 'allowed', bytesOut: 517, bytesIn: 4_096, method: 'CONNECT' },
  { host: 'evil.example.net', port: 80, decision: 'denied', reason: 'not allowed\u202e', bytesOut: 0, bytesIn: 0, method: 'POST', path: '/\u001b[31mcollect' },
  { host: '10.0.0.5', port: 8080, decision: 'denied', reason: 'private address 10.0.0.5', bytesOut: 0, bytesIn: 0, method: 'GET', path: '/' },
];
export const FAKE_EGRESS_DROPPED = 3;

/** Reports of the first running run, by tick of the fake's clock. */
export const FAKE_LIVE_EGRESS: Record<number, EgressRecord> = {
  2: { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 0, bytesIn: 0, secret: 'API_KEY', method: 'GET', path: '/v1/items' },
  3: { host: 'evil.example.net', port: 443, decision: 'denied', reason: 'denied by a rule (evil.example.net)', bytesOut: 0, bytesIn: 0, method: 'CONNECT' },
  5: { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 912, bytesIn: 20_480, secret: 'API_KEY', method: 'GET', path: '/v1/items', status: 200 },
};
