// The run view's app-only tools against the real CLI and a real runtime, on both revisions: a client that
// renders MCP Apps follows its run (queued or running, the output so far, then finished) by the call's
// arguments and then by run id, over 2026-07-28 as over 2025-11-25, and the View's document is the same on
// both revisions. (Another caller's runs stay unknown: test/unit/mcp/run-view-runs.test.ts.)
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_VIEW_STATUS_TOOL, RUN_VIEW_URI, type RunViewStatus } from '../../../shared/run-view.js';
import { sandbox } from '../helpers.js';
import { tempHome } from './mcp-helpers.js';
import { baseEnv, killAllChildren, startServe, type ServeProcess } from './real-clients-helpers.js';

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const CODE = 'import time\nprint("tick", flush=True)\ntime.sleep(3)\nprint("tock")';

interface Peer {
  callTool(p: { name: string; arguments?: Record<string, unknown> }, schema?: undefined, options?: { timeout?: number }): Promise<unknown>;
  readResource(p: { uri: string }): Promise<{ contents: { text?: string }[] }>;
  close(): Promise<void>;
}

const statusOf = async (peer: Peer, args: Record<string, unknown>) => ((await peer.callTool({ name: RUN_VIEW_STATUS_TOOL, arguments: args })) as { structuredContent: RunViewStatus }).structuredContent;

describe.skipIf(!sandbox.available)('the run view tools (real CLI, both revisions)', () => {
  let home: string;
  let serve: ServeProcess;
  let token: string;
  const peers: Peer[] = [];

  beforeAll(async () => {
    home = tempHome();
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, poolSize: 1 }));
    serve = await startServe(baseEnv({ SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'warn' }));
    token = readFileSync(serve.tokenFile, 'utf8').trim();
  }, 90_000);
  afterAll(async () => {
    await Promise.allSettled(peers.map((p) => p.close()));
    await serve?.stop();
    killAllChildren();
  });

  const legacy = async (): Promise<Peer> => {
    const client = new Client({ name: 'apps-legacy', version: '1' }, { capabilities: APPS });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    peers.push(client as unknown as Peer);
    return client as unknown as Peer;
  };
  const modern = async (): Promise<Peer> => {
    const client = new ModernClient({ name: 'apps-modern', version: '1' }, { capabilities: APPS, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernHttpTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    peers.push(client as unknown as Peer);
    return client as unknown as Peer;
  };

  it.each([
    ['2025-11-25', legacy],
    ['2026-07-28', modern],
  ] as const)('on %s, follows the run by its arguments, then by its id, to the end', async (revision, connect) => {
    const peer = await connect();
    // HTTP clients share the client token, so they are one caller: each revision's run has arguments of its own.
    const code = `${CODE}\n# ${revision}`;
    const args = { code, timeout: 30 };
    expect((await statusOf(peer, { arguments: args })).state).toBe('unknown');
    const running = peer.callTool({ name: 'run_python', arguments: args }, undefined, { timeout: 90_000 });
    let status = await statusOf(peer, { arguments: args });
    for (let i = 0; i < 200 && !status.stdout.includes('tick'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await statusOf(peer, { arguments: { timeout: 30, code } });
    }
    expect(status).toMatchObject({ state: 'running', stdout: 'tick\n', stderr: '', clipped: false, questions: [] });
    expect(status.runId).toMatch(/\S/);
    await running;
    const done = await statusOf(peer, { runId: status.runId! });
    expect(done).toMatchObject({ state: 'finished', runId: status.runId, stdout: 'tick\ntock\n' });
    // The View's document is the same whichever revision reads it.
    expect((await peer.readResource({ uri: RUN_VIEW_URI })).contents[0]?.text).toMatch(/^<!doctype html>/);
  });
});
