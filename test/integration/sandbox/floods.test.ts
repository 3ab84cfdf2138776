// Code that finds the agent's frame writer through `gc` and floods the host with one frame kind for 10 s,
// run after run, against a real engine in its own process whose memory is read from outside: every run ends
// as protocol abuse, the host grows by less than 150 MB while it lasts, and gives it back after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FloodHost } from '../fixtures/flood-host.js';
import { FLOOD_KINDS } from '../fixtures/floods.js';
import { sandbox } from '../helpers.js';

const MB = 1_000_000;
const MiB = 1024 * 1024;

describe.skipIf(!sandbox.available)('frame floods from code that went around the agent', () => {
  let host: FloodHost;

  beforeAll(async () => {
    const oci = sandbox.runtime?.ociRuntime;
    host = new FloodHost({ ...process.env, SANDBAR_IMAGE: sandbox.image, ...(oci ? { SANDBAR_OCI_RUNTIME: oci } : {}) });
    await host.ready;
    // Everything an ordinary run needs is loaded before the first baseline.
    expect((await host.warm(4)).reasons).toEqual({ success: 4 });
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
  });

  for (const kind of FLOOD_KINDS) {
    it(`${kind} frames for 10 s: each run ends as protocol abuse, host RSS grows < 150 MB and comes back`, async () => {
      const { outcome, rss } = await host.flood(kind, 10);
      const m = (n: number) => (n / MiB).toFixed(0);
      console.info(`[flood ${kind}] ${outcome.runs} runs; host RSS before ${m(rss.before)} MiB, peak ${m(rss.peak)} MiB, after ${m(rss.after)} MiB`);
      expect(outcome.found).toBeGreaterThan(0); // the code really did go around the agent
      expect(outcome.runs).toBeGreaterThan(0);
      expect(outcome.reasons).toEqual({ protocol_abuse: outcome.runs });
      expect(outcome.messages[0]).toMatch(/^Protocol abuse: (it sent a host call past the in-flight budget|the sandbox sent more )/);
      expect(rss.peak - rss.before).toBeLessThan(150 * MB);
      expect(rss.after - rss.before).toBeLessThan(50 * MB);
    }, 120_000);
  }

  it('still serves an ordinary run afterwards', async () => {
    expect((await host.warm(1)).reasons).toEqual({ success: 1 });
  }, 60_000);
});
