// Session checkpoints over MCP with real containers (issue 28): a step back to `<id>@<n>` brings a variable
// and a /workspace file back to their values after call n, discards the later calls and their checkpoints,
// refuses checkpoints not kept or never made (naming those that are), is `unknown` to another caller, and
// keeps what `sessionCheckpoints` says; nothing is left behind when the session ends.
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { createMcpServer } from '../../../electron/mcp/server-factory.js';
import { engineSandboxes } from '../../../electron/sessions/engine-sandboxes.js';
import { SessionRegistry, type SessionPolicy } from '../../../electron/sessions/session-registry.js';
import { leftBehind, sandbox, startEngine, underGvisor, waitFor } from '../helpers.js';
import { serverDeps } from './mcp-helpers.js';

type Result = CallToolResult & { structuredContent?: { session?: { calls: number; checkpoints: number[] } } };

const textOf = (r: Result) => (r.content[0] as { text: string }).text;
const idOf = (r: Result) => /^session: ([0-9a-f]{32})$/m.exec(textOf(r))?.[1] ?? '';
/** The call's own output: what follows the session's lines. */
const outputOf = (r: Result) => textOf(r).split('\n').filter((l) => !l.startsWith('session')).join('\n');

type ReadmeStep = { code: string; at: 'new' | number | null } & ({ output: string; calls: number; checkpoints: number[] } | { error: string });

/** The README's step-back example: each `run_python(…)` line and the `# …` line under it (output, or isError text). */
function readmeStepBack(): ReadmeStep[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const block = /\*\*Stepping back \(checkpoints\)\.\*\*[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const lines = block.trimEnd().split('\n');
  const steps: ReadmeStep[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const callLine = /^run_python\(session=(?:"new"|id|id \+ "@(\d+)"), code="(.*)"\)$/.exec(lines[i]!);
    expect(callLine, lines[i]).not.toBeNull();
    const at = lines[i]!.startsWith('run_python(session="new"') ? 'new' : callLine![1] ? Number(callLine![1]) : null;
    const code = JSON.parse(`"${callLine![2]!.replaceAll('"', '\\"')}"`) as string;
    const said = lines[i + 1] ?? '';
    const error = /^# isError: (.*)$/.exec(said);
    const result = /^# (.*?) {2,}calls (\d+), checkpoints \[([\d, ]*)\]$/.exec(said);
    expect(error ?? result, said).not.toBeNull();
    if (error) steps.push({ code, at, error: error[1]! });
    else steps.push({ code, at, output: result![1]!, calls: Number(result![2]), checkpoints: result![3] ? result![3].split(', ').map(Number) : [] });
  }
  return steps;
}

describe.skipIf(!sandbox.available)('session checkpoints', { timeout: 180_000 }, () => {
  let engine: Engine;
  let registry: SessionRegistry;
  let policy: SessionPolicy;
  const clients: Client[] = [];

  beforeEach(async () => {
    engine = await startEngine({ poolSize: 1, sessionMaxSec: 3600 });
    policy = { idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 };
    registry = new SessionRegistry(engineSandboxes(engine), () => policy, { memoryLimit: () => engine.currentConfig.limits.memory });
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    registry.dispose();
    await engine.dispose();
    // Checkpoints live in the sandbox's own tmpfs and processes: nothing of them outlives it on the host.
    await waitFor(() => leftBehind(engine.owner.instanceId).containers.length === 0, 5000);
    expect(leftBehind(engine.owner.instanceId)).toEqual({ containers: [], volumes: [], images: [] });
  });

  async function connection(name: string): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(serverDeps(engine, 'stdio', {}, { sessions: registry })).connect(serverSide);
    const client = new SdkClient({ name, version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, args: Record<string, unknown>) => (await client.callTool({ name: 'run_python', arguments: args })) as Result;

  it('steps back to a call: variable and /workspace as they were, later calls gone, refusals that name what is kept', async () => {
    const a = await connection('vitest-a');
    const step = (n: number) => `x = ${n}\nopen("/workspace/f.txt", "w").write("v${n}")\nimport os; os.makedirs("/workspace/d", exist_ok=True)\nopen(f"/workspace/d/{${n}}", "w").write("")\nprint(x)`;
    const first = await call(a, { code: step(1), session: 'new' });
    const id = idOf(first);
    if (underGvisor) {
      // gVisor refuses PR_SET_CHILD_SUBREAPER (and CLONE_PARENT), so no checkpoints there: the first result and @n say why.
      expect(first.structuredContent?.session?.checkpoints).toEqual([]);
      expect(textOf(first)).toContain('session note: sessionCheckpoints is 5, but this sandbox keeps no checkpoints: under gVisor');
      expect(textOf(await call(a, { code: 'print(x)', session: `${id}@1` }))).toContain('this sandbox cannot keep checkpoints (under gVisor');
      return;
    }
    expect(first.structuredContent?.session).toMatchObject({ calls: 1, checkpoints: [1] });
    for (const n of [2, 3, 4]) expect(outputOf(await call(a, { code: step(n), session: id }))).toBe(String(n));

    const back = await call(a, { code: 'import os\nprint(x, open("/workspace/f.txt").read(), sorted(os.listdir("/workspace/d")))\nx += 100', session: `${id}@2` });
    expect(back.isError).toBe(false);
    expect(outputOf(back)).toBe("2 v2 ['1', '2']");
    expect(back.structuredContent?.session).toMatchObject({ calls: 3, checkpoints: [1, 2, 3] });
    // The old 3 and 4 are gone; the new 3 is the state after the step back.
    const gone = await call(a, { code: 'print(1)', session: `${id}@4` });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toContain('checkpoint');
    expect(textOf(gone)).toContain('Calls that can still be returned to: 1, 2, 3');
    const again = await call(a, { code: 'print(x)', session: `${id}@3` });
    expect(outputOf(again)).toBe('102');
    // The same checkpoint twice: a return does not use it up.
    expect(outputOf(await call(a, { code: 'print(x, open("/workspace/f.txt").read())', session: `${id}@2` }))).toBe('2 v2');
    expect(outputOf(await call(a, { code: 'print(x, open("/workspace/f.txt").read())', session: `${id}@1` }))).toBe('1 v1');

    const b = await connection('vitest-b');
    const other = await call(b, { code: 'print(1)', session: `${id}@1` });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain(`session ${id} is unknown`);

    // Only the last two with sessionCheckpoints 2; none with 0, and @n says so.
    policy = { ...policy, checkpoints: 2 };
    for (let i = 0; i < 3; i++) await call(a, { code: 'x += 1', session: id });
    const two = await call(a, { code: 'print(x)', session: id });
    const { calls, checkpoints } = two.structuredContent!.session!;
    expect(checkpoints).toEqual([calls - 1, calls]);
    expect(outputOf(await call(a, { code: 'print(x)', session: `${id}@${calls - 1}` }))).toBe('4');
    policy = { ...policy, checkpoints: 0 };
    const none = await call(a, { code: 'print(x)', session: id });
    expect(none.structuredContent?.session?.checkpoints).toEqual([]);
    const off = await call(a, { code: 'print(x)', session: `${id}@1` });
    expect(textOf(off)).toContain('sessionCheckpoints is 0');
    // The agent now is a checkpoint that was returned to: its crash is still seen (the relay adopted it).
    policy = { ...policy, checkpoints: 5 };
    await call(a, { code: 'x = 7', session: id });
    const latest = (await call(a, { code: 'x = 8', session: id })).structuredContent!.session!.calls;
    expect(outputOf(await call(a, { code: 'print(x)', session: `${id}@${latest - 1}` }))).toBe('7');
    const crash = await call(a, { code: 'import os\nos.abort()', session: id });
    expect(crash.isError).toBe(true);
    expect(textOf(crash)).toMatch(/session ended: its sandbox stopped during call \d+/);
    expect(registry.list()).toEqual([]);

    // Checkpoints lost (here the code kills them; in life the OOM killer takes them first) are said at the
    // call's end, and @n to one of them is refused like any checkpoint not kept; the session goes on.
    const fresh = idOf(await call(a, { code: 'x = 1', session: 'new' }));
    await call(a, { code: 'x = 2', session: fresh });
    const killer = [
      'import os, signal',
      'for p in os.listdir("/proc"):',
      '    if p.isdigit() and int(p) != os.getpid():',
      '        try:',
      '            if open(f"/proc/{p}/oom_score_adj").read().strip() == "1000": os.kill(int(p), signal.SIGKILL)',
      '        except OSError: pass',
      'import time; time.sleep(0.3)  # SIGKILL lands at once, but not within the same microsecond',
    ].join('\n');
    const killed = await call(a, { code: killer, session: fresh });
    expect(textOf(killed)).toContain('session note: checkpoints of calls 1, 2 dropped');
    expect(killed.structuredContent?.session?.checkpoints).toEqual([3]);
    const lost = await call(a, { code: 'print(x)', session: `${fresh}@1` });
    expect(lost.isError).toBe(true);
    expect(textOf(lost)).toContain('Calls that can still be returned to: 3');
    expect(outputOf(await call(a, { code: 'print(x)', session: `${fresh}@3` }))).toBe('2');
    expect(await registry.close(fresh)).toBe(true);
  });

  it.skipIf(underGvisor)("the README's step back prints what the README says", async () => {
    const a = await connection('vitest-readme');
    let id = '';
    const steps = readmeStepBack();
    expect(steps.length).toBeGreaterThanOrEqual(3);
    for (const step of steps) {
      const r = await call(a, { code: step.code, session: step.at === 'new' ? 'new' : step.at === null ? id : `${id}@${step.at}` });
      if (step.at === 'new') id = idOf(r);
      if ('error' in step) {
        expect(r.isError, textOf(r)).toBe(true);
        expect(textOf(r)).toContain(step.error.replace('<id>', id));
        continue;
      }
      expect(r.isError, textOf(r)).toBe(false);
      expect(outputOf(r)).toBe(step.output);
      expect(r.structuredContent?.session).toMatchObject({ calls: step.calls, checkpoints: step.checkpoints });
    }
  });

  it.skipIf(underGvisor)('60 MB a call under 512m: checkpoints stay within the limit, the oldest dropped (and said) before the session ends as memory', async () => {
    expect(engine.currentConfig.limits.memory).toBe('512m');
    const a = await connection('vitest-a');
    // Each call replaces its 60 MB: every checkpoint holds its own old copy, and all fit.
    const replace = 'data = bytearray(os.urandom(1)) * (60 << 20)\nprint(len(data) >> 20)';
    const first = await call(a, { code: `import os\n${replace}`, session: 'new' });
    const id = idOf(first);
    const notes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await call(a, { code: replace, session: id });
      expect(r.isError, textOf(r)).toBe(false);
      expect(outputOf(r), textOf(r)).toBe('60');
      expect(r.structuredContent?.session?.checkpoints.at(-1)).toBe(r.structuredContent?.session?.calls);
    }
    // Kept data: the live interpreter grows, so the checkpoints' old copies go first, then the session ends.
    let ended: Result | undefined;
    for (let i = 0; i < 12 && !ended; i++) {
      const r = await call(a, { code: 'kept = globals().setdefault("kept", [])\nkept.append(bytearray(os.urandom(1)) * (60 << 20))', session: id });
      const said = textOf(r).split('\n').filter((l) => l.startsWith('session note:'));
      notes.push(...said);
      // Oldest first: every checkpoint dropped for memory is older than each one still kept.
      const dropped = said.flatMap((l) => [.../calls? ([0-9, ]+) dropped to stay/.exec(l)?.[1]?.split(', ').map(Number) ?? []]);
      const kept = r.structuredContent?.session?.checkpoints ?? [];
      if (dropped.length > 0 && kept.length > 0) expect(Math.max(...dropped), textOf(r)).toBeLessThan(Math.min(...kept));
      if (r.isError) ended = r;
    }
    // Said before the end: the drops happen after a call (over 70 % of the limit), not in the OOM killer's hands.
    expect(notes.join('\n'), ended && textOf(ended)).toMatch(/checkpoints? of calls? [0-9, ]+ dropped to stay within the memory limit 512m/);
    expect(ended && textOf(ended)).toMatch(/memory limit 512m/);
  });
});
