// The desktop smoke test's checks, in the order a user meets them: the real app (built main and preload,
// the app:// panel) in a temporary SANDBAR_HOME, driven by Playwright's Electron launcher from outside,
// through the window's own preload and IPC, and over the MCP endpoint like an agent.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication } from 'playwright-core';
import { HISTORY_FILE } from '../../electron/history/history-store.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { SMOKE_REPORT_ENV } from '../../electron/shell/smoke-hook.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { consoleProblems, cspProblems, descendants, preloadProblems, windowUrlProblems, type ConsoleEntry, type PreloadSurface } from './outside-checks.js';
import { REQUIRE_RUNTIME_ENV, required } from './preconditions.js';
import { historyOnDisk, runThroughMcp } from './smoke-run-python.js';
import { alive, ARTIFACTS, Checklist, findEvent, processTable, readReport, runSecondInstance, screenshot, sleep, waitFor, type PageGlobals } from './smoke-support.js';

// path.resolve drops the trailing separator: on Windows Playwright quotes arguments for cmd.exe, where a
// trailing backslash would escape the closing quote.
export const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BUILT = ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/renderer/index.html'];

async function sandboxAvailability(image: string): Promise<{ runtime: ContainerRuntime | null; reason: string | null }> {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  try {
    await runtime.resolve();
  } catch (err) {
    return { runtime: null, reason: `no working container runtime: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { runtime, reason: (await runtime.imageExists(image)) ? null : `the image ${image} is missing` };
}

async function ownContainers(runtime: ContainerRuntime | null, pid: number): Promise<string[]> {
  if (!runtime) return [];
  return (await runtime.listOwned()).filter((c) => c.pid === pid).map((c) => c.name);
}

const visibleWindow = (app: ElectronApplication) => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().some((w) => w.isVisible()));

/** Runs every check against the app started with `electron`; resolves with the process exit code. */
export async function runSmoke(electron: string): Promise<number> {
  const missing = BUILT.filter((f) => !existsSync(path.join(ROOT, f)));
  if (missing.length > 0) {
    console.log(`test:electron: FAILED, the app is not built (${missing.join(', ')}): run npm run build`);
    return 1;
  }
  const list = new Checklist();
  const image = process.env.SANDBAR_IMAGE || DEFAULT_SETTINGS.image;
  const sandbox = await sandboxAvailability(image);
  if (sandbox.reason && required(process.env, REQUIRE_RUNTIME_ENV)) {
    await list.check('a container runtime and the image are there', () => [`${sandbox.reason} (${REQUIRE_RUNTIME_ENV} is set)`]);
    console.log(list.summary());
    return 1;
  }
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-smoke-'));
  const reportFile = path.join(home, 'smoke-report.jsonl');
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ httpPort: 0, poolSize: sandbox.reason ? 0 : 1, image }));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  Object.assign(env, { SANDBAR_HOME: home, [SMOKE_REPORT_ENV]: reportFile, SANDBAR_IMAGE: image, SANDBAR_LOG_LEVEL: 'info' });
  mkdirSync(ARTIFACTS, { recursive: true });
  console.log(`# Electron ${electron}; home ${home}; ${sandbox.reason ? `no runs: ${sandbox.reason}` : `runtime and image ${image} ready`}`);

  let app: ElectronApplication | null = null;
  let appLog = '';
  let pid = -1;
  try {
    app = await _electron.launch({ args: [ROOT], cwd: ROOT, env, timeout: 90_000 });
    app.process().stdout?.on('data', (c: Buffer) => (appLog += c.toString()));
    app.process().stderr?.on('data', (c: Buffer) => (appLog += c.toString()));
    const launched = app;
    const seen: ConsoleEntry[] = [];
    const page = await launched.firstWindow({ timeout: 60_000 });
    page.on('console', (m) => seen.push({ level: m.type(), text: m.text(), source: m.location().url }));
    page.on('pageerror', (e) => seen.push({ level: 'error', text: `uncaught ${e.message}` }));

    await list.check('the window loads app://sandbar/ and renders the panel', async () => {
      await page.locator('#root > *').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'window');
      return windowUrlProblems(page.url());
    });
    const booted = await waitFor('the app to report it booted', () => findEvent(reportFile, 'booted'), 60_000).catch(() => null);
    pid = booted?.pid ?? launched.process().pid ?? -1;

    await list.check('the page runs under the CSP (header, meta, string-to-code refused)', async () => {
      const header = await launched.evaluate(async ({ net }) => (await net.fetch('app://sandbar/index.html')).headers.get('content-security-policy'));
      const meta = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null);
      const evalResult = await page.evaluate(() => {
        try {
          new Function('return 1')();
          return 'allowed' as const;
        } catch {
          return 'refused' as const;
        }
      });
      return cspProblems({ header, meta, evalResult });
    });

    await list.check('the preload exposes exactly the contract, and no Node', async () => {
      const surface: PreloadSurface = await page.evaluate(() => {
        const w = globalThis as unknown as PageGlobals;
        const api = w.sandbar as unknown as { methods?: Record<string, unknown>; events?: Record<string, unknown> } | undefined;
        // No named inner functions here: tsx (esbuild keepNames) wraps them in a __name helper the page lacks.
        const methods = api?.methods ?? {};
        const events = api?.events ?? {};
        return {
          keys: api ? Object.keys(api) : [],
          methods: Object.fromEntries(Object.keys(methods).map((k) => [k, typeof methods[k]])),
          events: Object.fromEntries(Object.keys(events).map((k) => [k, typeof events[k]])),
          globals: Object.fromEntries(['require', 'process', 'module', 'Buffer', 'global', 'ipcRenderer', 'electron'].map((k) => [k, typeof w[k]])),
        };
      });
      return preloadProblems(surface);
    });

    await list.check('settings.update over IPC is applied, persisted and broadcast; an invalid one is refused', async () => {
      const value = DEFAULT_SETTINGS.historyMaxAgeDays === 45 ? 46 : 45;
      const r = await page.evaluate(async (value) => {
        const api = (globalThis as unknown as PageGlobals).sandbar;
        const event = new Promise<unknown>((resolve) => {
          const off = api.events['settings.changed']((data) => {
            off();
            resolve(data);
          });
          setTimeout(() => resolve(null), 10_000);
        });
        const update = await api.methods['settings.update']({ patch: { historyMaxAgeDays: value } });
        const refused = await api.methods['settings.update']({ patch: { historyMaxAgeDays: -1 } });
        const after = await api.methods['settings.get']({});
        return { update, refused, after, event: (await event) as { settings?: { historyMaxAgeDays?: number }; changed?: string[] } | null };
      }, value);
      const problems: string[] = [];
      if (!r.update.ok || r.update.value.settings.historyMaxAgeDays !== value) problems.push(`update answered ${JSON.stringify(r.update).slice(0, 300)}`);
      if (r.event?.settings?.historyMaxAgeDays !== value || !r.event.changed?.includes('historyMaxAgeDays')) problems.push(`settings.changed was ${JSON.stringify(r.event)}`);
      if (r.refused.ok || !r.refused.error.fields?.historyMaxAgeDays) problems.push(`an invalid value was not refused by field: ${JSON.stringify(r.refused)}`);
      if (!r.after.ok || r.after.value.settings.historyMaxAgeDays !== value) problems.push('settings.get does not return the new value');
      const onDisk = JSON.parse(readFileSync(path.join(home, 'settings.json'), 'utf8')) as { historyMaxAgeDays?: number };
      if (onDisk.historyMaxAgeDays !== value) problems.push(`settings.json has historyMaxAgeDays ${onDisk.historyMaxAgeDays}`);
      return problems;
    });

    // Set inside a check's closure, read by later checks.
    const run = { id: null as string | null };
    if (sandbox.reason) list.skip('run_python over the MCP endpoint reaches the Live view', sandbox.reason);
    else {
      await list.check('run_python over the MCP endpoint runs a container, and the run reaches the Live view', async () => {
        const { problems, id } = await runThroughMcp(page, home);
        run.id = id;
        return problems;
      });
    }

    await list.check('the main process records history through node:sqlite', () =>
      booted?.historyDriver === 'node:sqlite' ? [] : [`history driver: ${booted ? booted.historyDriver : 'no booted report'}`],
    );

    await list.check('a second instance hands over to the first and leaves', async () => {
      await launched.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().forEach((w) => w.hide()));
      await waitFor('the window to hide', async () => ((await visibleWindow(launched)) ? null : true), 10_000);
      const second = await runSecondInstance(electron, ROOT, env);
      const problems: string[] = [];
      if (second.code !== 0) problems.push(`the second instance exited with ${second.code}:\n${second.output.slice(-2000)}`);
      if (!findEvent(reportFile, 'second-instance-exit')) problems.push('the second instance did not report leaving for the lock holder');
      const handed = await waitFor('the first instance to be told', () => findEvent(reportFile, 'second-instance'), 10_000).catch(() => null);
      if (!handed) problems.push("the first instance got no 'second-instance' event");
      const shown = await waitFor('the window to show again', async () => ((await visibleWindow(launched)) ? true : null), 10_000).catch(() => null);
      if (!shown) problems.push('the first instance did not show its window');
      return problems;
    });

    await list.check('quit exits 0 and leaves no container and no process', async () => {
      const tree = descendants(pid, processTable() ?? []);
      const containers = await ownContainers(sandbox.runtime, pid);
      const problems: string[] = [];
      if (!sandbox.reason && containers.length === 0) problems.push('no container of this app was found before quitting (the pool should hold one): the check below would prove nothing');
      const child = launched.process();
      const exited = child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await launched.close();
      const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)]);
      app = null;
      if (code !== 0) problems.push(`the app exited with ${code}`);
      if (!findEvent(reportFile, 'quitting')) problems.push('no before-quit clean-up ran');
      const disposed = findEvent(reportFile, 'disposed');
      if (!disposed || disposed.error) problems.push(`the engine was not disposed cleanly: ${disposed?.error ?? 'no report'}`);
      if (alive(pid)) problems.push(`the main process ${pid} is still running`);
      const left = await waitFor('the processes to go', () => {
        const still = tree.filter(alive);
        return still.length === 0 ? [] : null;
      }, 10_000).catch(() => tree.filter(alive));
      if (left.length > 0) problems.push(`processes left behind: ${left.join(', ')}`);
      if (process.platform === 'win32') console.log('# the process tree is not checked on Windows (no ps)');
      const remaining = await waitFor('the containers to go', async () => ((await ownContainers(sandbox.runtime, pid)).length === 0 ? true : null), 20_000).catch(() => null);
      if (!remaining) problems.push(`containers left behind: ${(await ownContainers(sandbox.runtime, pid)).join(', ')}`);
      return problems;
    });

    // After quit, so the whole session counts, unload included.
    await list.check('no console errors or Electron security warnings in the window, start to quit', () => consoleProblems([...seen, ...consoleFromMain(reportFile)]));

    await list.check('the history database on disk was written by the app' + (run.id ? ' and holds the run' : ''), () => historyOnDisk(path.join(home, HISTORY_FILE), run.id));
  } catch (err) {
    await list.check('the smoke test ran to the end', () => [err instanceof Error ? (err.stack ?? err.message) : String(err)]);
  } finally {
    if (app) {
      const child = app.process();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    // Whatever a failure left running is removed so a CI machine is not littered.
    if (pid > 0 && sandbox.runtime) await sandbox.runtime.killAndRemove(await ownContainers(sandbox.runtime, pid).catch(() => [])).catch(() => {});
  }
  if (list.ok) rmSync(home, { recursive: true, force: true });
  else {
    writeFileSync(path.join(ARTIFACTS, 'app.log'), appLog);
    console.log(`# kept ${home}; the app's output is in ${path.join(ARTIFACTS, 'app.log')}`);
  }
  console.log(list.summary());
  return list.ok ? 0 : 1;
}

/** Console messages the main process saw from the first one on (the page listener attaches later). */
function consoleFromMain(reportFile: string): ConsoleEntry[] {
  return readReport(reportFile).flatMap((e) => (e.event === 'console' ? [{ level: e.level, text: e.message, source: `${e.source}:${e.line}` }] : []));
}
