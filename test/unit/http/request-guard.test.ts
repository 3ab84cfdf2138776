// The loopback listener's guard (http/request-guard.ts): Host, Origin and bearer-token checks every request meets.
import { describe, expect, it } from 'vitest';
import { bearerMatches, isAllowedOrigin, isLoopbackHost, jsonRpcError } from '../../../electron/http/request-guard.js';

const TOKEN = 'a'.repeat(64);

describe('request guard', () => {
  it('accepts only loopback Host headers with our port', () => {
    for (const host of ['127.0.0.1:7337', 'localhost:7337', 'LOCALHOST:7337', '[::1]:7337']) expect(isLoopbackHost(host, 7337)).toBe(true);
    for (const host of [undefined, '', 'evil.example:7337', '127.0.0.1', '127.0.0.1:80', '127.0.0.1.evil.example:7337', 'localhost.evil:7337', '10.0.0.1:7337']) {
      expect(isLoopbackHost(host, 7337)).toBe(false);
    }
  });

  it('allows no Origin (MCP clients) and the panel origin, nothing else', () => {
    expect(isAllowedOrigin(undefined, 7337)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:7337', 7337)).toBe(true);
    expect(isAllowedOrigin('http://localhost:7337', 7337)).toBe(true);
    for (const origin of ['http://evil.example', 'null', 'https://127.0.0.1:7337', 'http://127.0.0.1:7338', 'http://localhost', 'file://']) {
      expect(isAllowedOrigin(origin, 7337)).toBe(false);
    }
  });

  it('matches only "Bearer <exact token>"', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [undefined, '', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}b`, `Bearer ${TOKEN.slice(1)}`, `Bearer ${TOKEN} extra`, 'Bearer ']) {
      expect(bearerMatches(header, TOKEN)).toBe(false);
    }
  });

  it('shapes errors as JSON-RPC', () => {
    expect(jsonRpcError(-32001, 'Unauthorized')).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null });
  });
});
