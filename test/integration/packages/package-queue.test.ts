// Runs waiting on packages are queued runs (real CLI over stdio, real runtime, concurrency 1 and queue
// limit 1): of 8 package runs sent at once, one runs, one waits and six are refused as busy. Each run's
// sandbox mounts only its own layer: it cannot list the layer store, nor reach another run's layer by its key.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { stdioClient, tempHome } from '../mcp/mcp-helpers.js';
import { buildWheel, FixtureIndex, hostPipWheel } from './package-fixtures.js';

const pip = hostPipWheel();
const NAMES = Array.from({ length: 8 }, (_, i) => `queued${i}`);

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

describe.skipIf(!sandbox.available || !pip)('package runs and the queue limit', () => {
  const index = new FixtureIndex();
  const home = tempHome();
  let client: Client;

  beforeAll(async () => {
    index.add('pip', pip!);
    for (const name of NAMES) index.add(name, await buildWheel(name, '1.0', { [`${name}.py`]: `NAME = '${name}'\n` }));
    await index.start();
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ concurrency: 1, queueLimit: 1, poolSize: 0 }));
    client = await stdioClient({ SANDBAR_PACKAGE_INDEX: index.url, SANDBAR_HOME: home });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await index.stop();
  });

  it('refuses the runs past the queue limit as busy, runs the rest, and each sees only its own layer', async () => {
    const code = (name: string) => `import os, ${name}\nprint(${name}.NAME, *sorted(os.listdir('/opt/sandbar/layers')))`;
    const results = await Promise.all(NAMES.map((name) => client.callTool({ name: 'run_python', arguments: { code: code(name), packages: [name] } }, undefined, { timeout: 300_000 })));
    const busy = results.filter((r) => r.isError);
    const ran = results.filter((r) => !r.isError).map((r) => text(r).split(' '));
    expect(busy).toHaveLength(6);
    // The count includes runs still installing (admitted before the queue filled), so it may say 1 or 2.
    for (const r of busy) expect(text(r)).toMatch(/Sandbar is busy: [12] runs? (is|are) already waiting \(queue limit 1\)/);
    expect(ran).toHaveLength(2);
    // Every run that ran listed exactly one layer under the mount: its own.
    for (const [name, ...layers] of ran) {
      expect(NAMES).toContain(name);
      expect(layers).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    }
    const [[nameA, keyA], [, keyB]] = ran as [string[], string[]];
    expect(keyA).not.toBe(keyB);
    // A later run with A's package (reused: no helper) cannot reach B's layer by its key, nor the store.
    const probe = [
      `import os, ${nameA}`,
      `print(os.listdir('/opt/sandbar/layers'))`,
      `print(os.path.exists('/opt/sandbar/layers/${keyB}'))`,
    ].join('\n');
    const seen = await client.callTool({ name: 'run_python', arguments: { code: probe, packages: [nameA!] } }, undefined, { timeout: 120_000 });
    expect(text(seen).split('\n')).toEqual([`['${keyA}']`, 'False']);
    // On the host the layers are the user's own, with no setuid/setgid bit and nothing group/world-writable.
    const layerDir = path.join(home, 'packages', 'layers', keyA!);
    for (const entry of readdirSync(layerDir, { recursive: true, withFileTypes: true })) {
      const st = statSync(path.join(entry.parentPath, entry.name));
      expect({ name: entry.name, uid: st.uid, bad: st.mode & 0o7022 }).toEqual({ name: entry.name, uid: process.getuid!(), bad: 0 });
    }
  }, 300_000);
});
