// The panel's Re-run goes through the run service like any MCP run: the recorded run again (its servers
// and now its packages too), recorded as client `panel`, and refused for every reason an MCP run is.
import { afterEach, describe, expect, it } from 'vitest';
import { controlMethods, type ControlServices } from '../../../electron/control/control-methods.js';
import { startAsPanel } from '../../../electron/control/panel-runs.js';
import { ControlRouter } from '../../../electron/control/router.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { runFixture } from '../runs/run-fixture.js';

let fixture: Awaited<ReturnType<typeof runFixture>>;
afterEach(() => fixture?.dispose());

const finished = (events: EngineEvent[], id: string) =>
  new Promise<Extract<EngineEvent, { type: 'finished' }>>((resolve) => {
    const check = () => {
      const e = events.find((x): x is Extract<EngineEvent, { type: 'finished' }> => x.type === 'finished' && x.result.id === id);
      if (e) resolve(e);
      else setTimeout(check, 5);
    };
    check();
  });

describe('Re-run from the panel', () => {
  it('runs the recorded code with its servers and packages, as client panel', async () => {
    fixture = await runFixture();
    const events: EngineEvent[] = [];
    fixture.engine.subscribe((e) => events.push(e));
    const { id } = await startAsPanel(fixture.runs, { code: 'packages\nservers', servers: ['weather'], packages: ['numpy==2.1'], timeoutSec: 5 });
    const done = await finished(events, id);
    expect(done.result.stdout).toBe('/opt/sandbar/layers/abc\nweather\n');
    const queued = events.find((e) => e.type === 'queued');
    expect(queued?.type === 'queued' && queued.execution).toMatchObject({ client: { name: 'panel', transport: 'panel' }, timeoutSec: 5, packages: { requirements: ['numpy==2.1'] } });
  });

  it('is refused, with the reason, for a denied server, packages the backend cannot mount, or code past the limit', async () => {
    fixture = await runFixture({ features: { packages: false, label: 'Cluster' }, maxCodeBytes: 1024 });
    await expect(startAsPanel(fixture.runs, { code: 'print x', servers: ['mail'], packages: [], timeoutSec: null })).rejects.toThrow(/'mail' is denied in Sandbar/);
    await expect(startAsPanel(fixture.runs, { code: 'print x', servers: [], packages: ['numpy'], timeoutSec: null })).rejects.toThrow('Packages are not available with the Cluster runtime: bake them into the image.');
    await expect(startAsPanel(fixture.runs, { code: 'print x', servers: [], packages: ['numpy; rm -rf /'], timeoutSec: null })).rejects.toThrow(/^packages: /);
    await expect(startAsPanel(fixture.runs, { code: `print ${'x'.repeat(2048)}`, servers: [], packages: [], timeoutSec: null })).rejects.toThrow(/the limit is 1 KiB/);
    expect(fixture.engine.snapshot().queued).toEqual([]);
  });
});

describe('executions.rerun (the control method behind Re-run)', () => {
  it('repeats the recorded run (code, servers, packages, timeout) through the run service, and refuses an unknown id', async () => {
    fixture = await runFixture();
    fixture.open();
    const events: EngineEvent[] = [];
    fixture.engine.subscribe((e) => events.push(e));
    const recorded = { id: 'run-1', code: 'packages\nservers', servers: ['weather'], packages: { requirements: ['numpy==2.1'] }, timeoutSec: 7 };
    const services = { history: { get: (id: string) => (id === recorded.id ? recorded : null) }, rerun: (run: Parameters<typeof startAsPanel>[1]) => startAsPanel(fixture.runs, run) };
    const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const router = new ControlRouter(controlMethods(services as unknown as ControlServices), quiet as never);
    const answer = await router.call('executions.rerun', { id: 'run-1' }, { transport: 'http' });
    if (!answer.ok) throw new Error(answer.error.message);
    const done = await finished(events, (answer.value as { id: string }).id);
    expect(done.result.stdout).toBe('/opt/sandbar/layers/abc\nweather\n');
    const queued = events.find((e) => e.type === 'queued');
    expect(queued?.type === 'queued' && queued.execution).toMatchObject({ client: { name: 'panel' }, timeoutSec: 7, servers: ['weather'], packages: { requirements: ['numpy==2.1'] } });
    const unknown = await router.call('executions.rerun', { id: 'run-2' }, { transport: 'http' });
    expect(unknown.ok ? 'ran' : unknown.error.message).toBe('No execution run-2 in the history');
  });
});
