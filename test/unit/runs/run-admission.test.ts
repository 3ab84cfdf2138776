// What the run service admits on the fake backend: sessions (bound to their caller, state kept between
// calls), packages (prepared beside the servers, refused where the backend cannot mount them) and the
// queue limit, which counts the runs still installing their packages.
import { afterEach, describe, expect, it } from 'vitest';
import { RunRefused } from '../../../electron/runs/run-refusal.js';
import { ALICE, BOB, deferred, runFixture } from './run-fixture.js';

let fixture: Awaited<ReturnType<typeof runFixture>>;
afterEach(() => fixture?.dispose());

const messageOf = (promise: Promise<unknown>) => promise.then(() => 'not refused', (e: unknown) => (e instanceof RunRefused ? e.message : `not a refusal: ${String(e)}`));

describe('sessions through the run service', () => {
  it('opens a session, keeps its state for the same caller, and says so with each result', async () => {
    fixture = await runFixture();
    const first = await fixture.runs.start({ code: 'set x 41\nprint opened', session: 'new' }, ALICE);
    const one = await first.result;
    expect(first.session).toEqual({ id: one.session?.id, call: 1 });
    expect(one.session).toMatchObject({ calls: 1, idleExpiresInSec: 600 });
    const second = await fixture.runs.start({ code: 'get x', session: one.session!.id }, ALICE);
    const two = await second.result;
    expect(two.execution.stdout).toBe('41\n');
    expect(two.session).toMatchObject({ id: one.session!.id, calls: 2 });
    expect((await fixture.runs.start({ code: 'get x', session: one.session!.id }, ALICE)).session?.call).toBe(3);
  });

  it('refuses another caller\'s session as unknown, and a code-ended session as ended', async () => {
    fixture = await runFixture();
    const { session } = await (await fixture.runs.start({ code: 'end', session: 'new' }, ALICE)).result;
    expect(session?.ended).toMatch(/ended/);
    expect(await messageOf(fixture.runs.start({ code: 'get x', session: session!.id }, BOB))).toMatch(/is unknown/);
    expect(await messageOf(fixture.runs.start({ code: 'get x', session: session!.id }, ALICE))).toMatch(/ended/);
  });

  it('refuses sessions where none are kept, and on a backend that cannot pause, naming it', async () => {
    fixture = await runFixture({ sessions: false });
    expect(await messageOf(fixture.runs.start({ code: 'print x', session: 'new' }, ALICE))).toMatch(/session is not available here/);
    await fixture.dispose();
    fixture = await runFixture({ features: { pause: false, label: 'Cluster' } });
    expect(await messageOf(fixture.runs.start({ code: 'print x', session: 'new' }, ALICE))).toMatch(/not available with the Cluster runtime/);
  });
});

describe('packages through the run service', () => {
  it('installs them beside the servers, puts the layer in the context and records them with the run', async () => {
    fixture = await runFixture();
    const recorded: unknown[] = [];
    fixture.engine.subscribe((e) => e.type === 'queued' && recorded.push(e.execution.packages));
    const ticket = await fixture.runs.start({ code: 'packages\nservers', servers: ['weather'], packages: ['numpy==2.1'] }, ALICE);
    const { execution } = await ticket.result;
    expect(execution.stdout).toBe('/opt/sandbar/layers/abc\nweather\n');
    expect(fixture.packageCalls).toEqual([['numpy==2.1']]);
    expect(recorded).toEqual([{ requirements: ['numpy==2.1'], layer: 'abc', reused: false, fetches: [] }]);
  });

  it('keeps a session to the packages of its first call: another layer is refused, the session stays', async () => {
    const keyOf = (r: readonly string[]) => (r[0] === 'numpy' ? 'a' : 'b').repeat(32);
    fixture = await runFixture({
      config: { packageLayers: '/tmp/sandbar-test-layers' },
      packages: async (r) => ({ path: `/opt/sandbar/layers/${keyOf(r)}`, key: keyOf(r), reused: true, fetches: [] }),
    });
    const opened = await (await fixture.runs.start({ code: 'packages', session: 'new', packages: ['numpy'] }, ALICE)).result;
    expect(opened.execution.stdout).toBe(`/opt/sandbar/layers/${'a'.repeat(32)}\n`);
    const id = opened.session!.id;
    const other = await (await fixture.runs.start({ code: 'packages', session: id, packages: ['pandas'] }, ALICE)).result;
    expect(other.execution.exitReason).toBe('runtime_error');
    expect(other.execution.message).toMatch(/^This session's sandbox was opened with other packages; a session keeps the packages of its first call/);
    const same = await (await fixture.runs.start({ code: 'packages', session: id, packages: ['numpy'] }, ALICE)).result;
    expect(same.execution.stdout).toBe(`/opt/sandbar/layers/${'a'.repeat(32)}\n`);
  });

  it('refuses packages on a backend that cannot mount layers, naming it, before installing anything', async () => {
    fixture = await runFixture({ features: { packages: false, label: 'Cluster' } });
    expect(await messageOf(fixture.runs.start({ code: 'print x', packages: ['numpy'] }, ALICE))).toBe('Packages are not available with the Cluster runtime: bake them into the image.');
    expect(fixture.packageCalls).toEqual([]);
  });

  it('refuses a malformed requirement or too many, as a validation refusal in MCP\'s words, before installing anything', async () => {
    fixture = await runFixture();
    const bad = await fixture.runs.start({ code: 'print x', packages: ['numpy; rm -rf /'] }, ALICE).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(RunRefused);
    expect((bad as RunRefused).kind).toBe('validation');
    expect((bad as RunRefused).message).toMatch(/^packages: /);
    const many = Array.from({ length: 33 }, (_, i) => `pkg${i}`);
    expect(await messageOf(fixture.runs.start({ code: 'print x', packages: many }, ALICE))).toBe('At most 32 packages per run.');
    expect(fixture.packageCalls).toEqual([]);
    expect(fixture.engine.snapshot().queued).toEqual([]);
  });

  it('refuses with the installer\'s reason', async () => {
    fixture = await runFixture({ packages: () => Promise.reject(new Error('numpy==9: no matching wheel on the index')) });
    expect(await messageOf(fixture.runs.start({ code: 'print x', packages: ['numpy==9'] }, ALICE))).toBe('numpy==9: no matching wheel on the index');
  });
});

describe('the queue limit', () => {
  it('counts runs installing packages as waiting: the next run is refused as busy in the engine\'s words', async () => {
    const install = deferred<{ path: string; key: string; reused: boolean; fetches: [] }>();
    fixture = await runFixture({ config: { concurrency: 1, queueLimit: 1 }, packages: () => install.promise });
    const running = await fixture.runs.start({ code: 'wait\nprint first' }, ALICE);
    const installing = fixture.runs.start({ code: 'packages', packages: ['numpy'] }, ALICE);
    await new Promise((r) => setTimeout(r, 10));
    const refused = await fixture.runs.start({ code: 'print third' }, BOB);
    const third = await refused.result;
    expect(third.execution.exitReason).toBe('runtime_error');
    expect(third.execution.message).toBe('Sandbar is busy: 1 run is already waiting (queue limit 1). Try again when some have finished.');
    // Once installed it joins the queue (it was admitted), and everything admitted runs.
    install.resolve({ path: '/opt/sandbar/layers/np', key: 'np', reused: true, fetches: [] });
    const second = await installing;
    fixture.open();
    expect((await running.result).execution.stdout).toBe('first\n');
    expect((await second.result).execution.stdout).toBe('/opt/sandbar/layers/np\n');
  });

  it('with nothing installing, admits exactly what the engine admits', async () => {
    fixture = await runFixture({ config: { concurrency: 1, queueLimit: 1 } });
    const a = await fixture.runs.start({ code: 'wait' }, ALICE);
    const b = await fixture.runs.start({ code: 'print b' }, ALICE);
    const c = await fixture.runs.start({ code: 'print c' }, ALICE);
    expect((await c.result).execution.message).toMatch(/^Sandbar is busy: 1 run is already waiting/);
    fixture.open();
    expect((await a.result).execution.exitReason).toBe('success');
    expect((await b.result).execution.stdout).toBe('b\n');
  });
});
