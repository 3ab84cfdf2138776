// What the code printed reaches the agent, through a real engine and the real HTTP endpoint with the SDK
// client: 900 KB whole; 1.1 MB and 10 MB as an unbroken head of at least 800 KB with a line saying where it
// was cut and how much was printed; a table's leading spaces kept; and output flushed before a segfault,
// abort() or os._exit() there every time, with the reason in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { sandbox, startEngine } from '../helpers.js';
import { httpFixture, type HttpFixture } from './mcp-helpers.js';

/** `lines` numbered lines of 8 bytes each, exactly as the Python below prints them. */
const numbered = (lines: number) => Array.from({ length: lines }, (_, i) => `${String(i).padStart(7, '0')}\n`).join('');
const printNumbered = (lines: number) => `import sys\nsys.stdout.write(''.join('%07d\\n' % i for i in range(${lines})))`;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe.skipIf(!sandbox.available)('the agent gets what the code printed', () => {
  let engine: Engine;
  let http: HttpFixture;
  let client: Client;

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2, concurrency: 4 });
    http = await httpFixture(engine);
    client = await http.client();
  }, 120_000);

  afterAll(async () => {
    await http?.close();
    await engine?.dispose();
  });

  const call = async (code: string) => (await client.callTool({ name: 'run_python', arguments: { code, timeout: 60 } }, undefined, { timeout: 120_000 })) as CallToolResult;

  it('delivers a 900 KB print whole, byte for byte, in the text', async () => {
    const r = await call(printNumbered(112_500)); // 900,000 bytes
    expect(r.isError).toBe(false);
    expect(textOf(r)).toBe(numbered(112_500).slice(0, -1)); // the text drops only the final newline
    expect(r.structuredContent).toMatchObject({ outputInText: true, exitReason: 'success' });
  }, 120_000);

  for (const [label, lines, printed] of [
    ['1.1 MB', 137_500, '1,100,000 bytes'],
    ['10 MB', 1_250_000, '10,000,000 bytes'],
  ] as const) {
    it(`delivers a ${label} print as its first 800 KB or more, in order, saying it was cut and how much was printed`, async () => {
      const r = await call(printNumbered(lines));
      expect(r.isError).toBe(false); // printing a lot is not an error: the run went on to its end
      const text = textOf(r);
      const at = text.lastIndexOf('\n[sandbar: stdout cut here after ');
      expect(at).toBeGreaterThanOrEqual(800_000);
      const head = text.slice(0, at);
      expect(numbered(lines).startsWith(head)).toBe(true);
      expect(text.slice(at + 1)).toMatch(new RegExp(`^\\[sandbar: stdout cut here after [^:]+: a result may not pass 1,040,000 bytes\\. The code printed [0-9.]+ MiB \\(${printed}\\); the run's history keeps its first 1 MiB \\(outputCapBytes\\)\\]$`));
    }, 120_000);
  }

  it('keeps the leading spaces of the first line (a pandas table header)', async () => {
    const r = await call("import pandas as pd\nprint(pd.DataFrame({'a': [1, 2], 'b': [30, 4]}))");
    expect(textOf(r)).toBe('   a   b\n0  1  30\n1  2   4');
  }, 120_000);

  const CRASHES = [
    ['a segfault (ctypes)', 'import ctypes\nctypes.string_at(0)', /^Sandbox exited with code 139: the Python process crashed with a segmentation fault \(SIGSEGV\)/],
    ['abort()', 'import os\nos.abort()', /^Sandbox exited with code 134: the Python process aborted .*\(SIGABRT\)/],
    ['os._exit(3)', 'import os\nos._exit(3)', /^Sandbox exited with code 3: the process ended at once \(os\._exit\(\) or native code\)/],
  ] as const;

  for (const [label, crash, reason] of CRASHES) {
    it(`keeps output flushed before ${label}, 20 of 20 times, with the reason in words`, async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(`import sys\nprint("before crash ${i}", flush=True)\nprint("on stderr ${i}", file=sys.stderr, flush=True)\n${crash}`)),
      );
      results.forEach((r, i) => {
        const structured = r.structuredContent as { error: string; stdout: string[]; stderr: string[] };
        expect(r.isError).toBe(true);
        expect(structured.stdout).toEqual([`before crash ${i}`]);
        expect(structured.stderr).toEqual([`on stderr ${i}`]);
        expect(structured.error).toMatch(reason);
        const text = textOf(r);
        expect(text).toContain(`before crash ${i}\nstderr:\non stderr ${i}`);
        expect(text.split('\n').at(-1)).toMatch(new RegExp(`^error: ${reason.source.slice(1)}`));
      });
    }, 300_000);
  }
});
