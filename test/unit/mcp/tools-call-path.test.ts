// tools/call is installed past the SDK Server's wrapper (server-factory.ts): the result must still reach the
// client exactly as the handler shaped it ([compat] formatting), and a malformed request must still be
// refused by the protocol layer's own validation before any handler runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../electron/logger.js';
import { shapeRun } from '../../../electron/mcp/run-python-handler.js';
import { createMcpServer, type McpServerDeps } from '../../../electron/mcp/server-factory.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';

const execution: ExecutionResult = {
  id: 'run-1', exitReason: 'error', exitCode: 1, stdout: 'partial\n', stderr: 'Traceback (most recent call last):\nValueError: no\n',
  stdoutTruncated: false, stderrTruncated: false, timeoutSec: 30, limits: DEFAULT_SETTINGS.limits,
  queuedAt: 1, startedAt: 2, finishedAt: 5, durationMs: 3,
};

let started = 0;
function deps(): McpServerDeps {
  return {
    settings: () => DEFAULT_SETTINGS,
    log: createLogger('test', { SANDBAR_LOG_LEVEL: 'error' }),
    version: '0.0.0',
    transport: 'stdio',
    runs: {
      start: () => {
        started++;
        return Promise.resolve({ id: execution.id, result: Promise.resolve({ execution }) });
      },
      pendingApproval: () => undefined,
      events: { subscribe: () => () => {} },
    },
  } as unknown as McpServerDeps;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function peer(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(deps());
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  closers.push(() => client.close(), () => server.close());
  return client;
}

describe('tools/call', () => {
  it('answers run_python with exactly the shaped result, key for key', async () => {
    const client = await peer();
    const answer = await client.request({ method: 'tools/call', params: { name: 'run_python', arguments: { code: 'raise ValueError("no")' } } }, ResultSchema);
    expect(answer).toEqual(JSON.parse(JSON.stringify(shapeRun({ execution }, [], DEFAULT_SETTINGS.outputMode))));
    expect(answer.isError).toBe(true);
  });

  it('still refuses a request without a tool name, before any run starts', async () => {
    const client = await peer();
    started = 0;
    const refused = client.request({ method: 'tools/call', params: { arguments: { code: 'print(1)' } } } as never, ResultSchema);
    // The protocol layer's parse answers it, as it did before the wrapper was skipped (the same code and words).
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.InternalError, message: expect.stringMatching(/"name"/) });
    expect(started).toBe(0);
  });
});
