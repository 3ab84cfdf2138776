// The tray follows the real engine through the real router: ready, busy while a run goes, ready again,
// and broken when the container runtime goes away (here: the runtime binary the settings name vanishes).
import { mkdtempSync, renameSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrayController } from '../../../electron/shell/tray-controller.js';
import type { TrayState } from '../../../electron/shell/tray-model.js';
import { containersOf, runtimeBinary, runtimeName, sandbox, waitFor } from '../helpers.js';
import { startTestApp, type TestApp } from './control-helpers.js';

describe.skipIf(!sandbox.available)('tray state from the real engine', () => {
  let t: TestApp;
  let tray: TrayController;
  const states: TrayState[] = [];
  let tooltip = '';
  const bin = mkdtempSync(path.join(tmpdir(), 'sandbar-runtime-'));
  // The project's runtime (podman or docker) under its own name, so the locator knows which it is.
  const runtime = path.join(bin, runtimeName() ?? 'runtime');

  beforeAll(async () => {
    symlinkSync(runtimeBinary(), runtime);
    t = await startTestApp({}, { SANDBAR_RUNTIME: runtime });
    tray = new TrayController({
      router: t.app.router,
      view: {
        setState: (state, text) => {
          if (states.at(-1) !== state) states.push(state);
          tooltip = text;
        },
        setMenu: () => {},
      },
      actions: { openPanel: () => {}, copyText: () => {}, openLogs: () => {}, quit: () => {} },
    });
    await tray.start();
  });
  afterAll(async () => {
    // Put the runtime back so shutdown can remove what is left.
    try {
      renameSync(`${runtime}.gone`, runtime);
    } catch {
      // already back
    }
    await t?.close();
    if (t) expect(containersOf(t.app.core.engine.owner.instanceId)).toEqual([]);
  });

  it('ready, then busy during a run, then ready, then broken when the runtime goes away', async () => {
    expect(await waitFor(() => t.app.router !== undefined && tooltip !== '' && states.at(-1) === 'ready' && /ready/i.test(tooltip), 60_000)).toBe(true);
    const run = t.app.core.engine.submit({ code: 'import time; time.sleep(2)' });
    expect(await waitFor(() => states.at(-1) === 'busy', 20_000)).toBe(true);
    expect((await run.result).exitReason).toBe('success');
    expect(await waitFor(() => states.at(-1) === 'ready', 10_000)).toBe(true);

    renameSync(runtime, `${runtime}.gone`);
    expect(await waitFor(() => states.at(-1) === 'broken', 30_000)).toBe(true);
    // The first broken report may blame the image (its check ran as the binary vanished); the next one names the runtime.
    expect(await waitFor(() => /Container runtime/i.test(tooltip), 30_000)).toBe(true);
    expect(states).toEqual(['ready', 'busy', 'ready', 'broken']);
  });
});
