// .github/workflows/desktop.yml cannot run here, so it is checked three ways: against SchemaStore's
// workflow JSON schema (@action-validator/core), by GitHub's own workflow parser (@actions/workflow-parser,
// which also knows which expression contexts each key allows), and for what it must do.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder; typed here so no @types package is needed.
const { load } = require('js-yaml') as { load(text: string): unknown };
const file = fileURLToPath(new URL('../../../.github/workflows/desktop.yml', import.meta.url));
const text = readFileSync(file, 'utf8');
const scripts = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { scripts: Record<string, string> }).scripts;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: { push: { branches: string[]; tags: string[] }; pull_request: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; strategy: { matrix: { os: string[] } }; env: Record<string, string>; steps: Step[] }>;
}
const workflow = load(text) as Workflow;
const job = Object.values(workflow.jobs)[0]!;
const steps = job.steps;
const stepIndex = (match: (s: Step) => boolean) => steps.findIndex(match);

/** Errors from GitHub's parser: syntax, schema, and expressions (contexts allowed where they are used). */
async function githubErrors(content: string): Promise<string[]> {
  const result = parseWorkflow({ name: 'desktop.yml', content }, new NoOperationTraceWriter());
  const errors = result.context.errors.getErrors().map((e) => e.message);
  if (result.value) await convertWorkflowTemplate(result.context, result.value);
  return [...new Set([...errors, ...result.context.errors.getErrors().map((e) => e.message)])];
}

describe('.github/workflows/desktop.yml', () => {
  it("passes SchemaStore's GitHub workflow schema, which refuses a misspelt key", () => {
    expect(validateWorkflow(text).errors).toEqual([]);
    expect(validateWorkflow(text.replace('runs-on:', 'runs-onn:')).errors.length).toBeGreaterThan(0);
  });

  it("passes GitHub's own workflow parser, which refuses a context where it is not available", async () => {
    expect(await githubErrors(text)).toEqual([]);
    // `runner` exists for steps, not for a job's env: the schema alone does not see this.
    const misplaced = text.replace(/^ {4}env:\n/m, "    env:\n      OS: ${{ runner.os }}\n");
    expect(misplaced).not.toBe(text);
    expect(await githubErrors(misplaced)).toEqual([expect.stringMatching(/Unrecognized named-value: 'runner'/)]);
  });

  it('runs on Linux, macOS and Windows, for pushes to main, version tags and pull requests, read-only', () => {
    const oses = job.strategy.matrix.os;
    expect(oses.some((os) => os.startsWith('ubuntu'))).toBe(true);
    expect(oses.some((os) => os.startsWith('macos'))).toBe(true);
    expect(oses.some((os) => os.startsWith('windows'))).toBe(true);
    expect(job['runs-on']).toBe('${{ matrix.os }}');
    expect(workflow.on.push).toEqual({ branches: ['main'], tags: ['v*'] });
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('pins every action to a full commit SHA with its version beside it', () => {
    const uses = [...text.matchAll(/uses:\s*(\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThanOrEqual(3);
    for (const [, ref, rest] of uses) {
      expect(ref, ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      expect(rest, ref).toMatch(/^\s*# v\d+\.\d+\.\d+$/);
    }
  });

  it('installs with the Electron download, then runs the unit tests and the smoke test, which must not skip', () => {
    // Comments may name it; no env or command may set it.
    expect(text.replace(/#.*$/gm, '')).not.toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD/);
    const install = stepIndex((s) => /^npm ci\b/.test(s.run ?? ''));
    const unit = stepIndex((s) => s.run === 'npm run test:unit');
    const smoke = stepIndex((s) => s.run === 'npm run test:electron');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(unit).toBeGreaterThan(install);
    expect(smoke).toBeGreaterThan(unit);
    expect(scripts['test:unit']).toBeDefined();
    expect(scripts['test:electron']).toBeDefined();
    const env = steps[smoke]!.env ?? {};
    expect(env.SANDBAR_REQUIRE_ELECTRON).toBe('1');
    // A run through a container is required where Podman is (Linux), and only there, in the image pulled.
    expect(env.SANDBAR_REQUIRE_RUNTIME).toBe("${{ runner.os == 'Linux' && '1' || '' }}");
    expect(env.SANDBAR_IMAGE).toBe('${{ env.SMOKE_IMAGE }}');
    // The unit tests run in a plain environment: nothing Sandbar reads is set for the whole job.
    expect(Object.keys(job.env).filter((name) => name.startsWith('SANDBAR_'))).toEqual([]);
  });

  it('gives Linux Podman, Xvfb and the sandbox image before the smoke test', () => {
    const linux = stepIndex((s) => s.if === "runner.os == 'Linux'" && /apt-get install -y podman xvfb/.test(s.run ?? ''));
    expect(linux).toBeGreaterThanOrEqual(0);
    expect(steps[linux]!.run).toContain('podman pull "$SMOKE_IMAGE"');
    expect(linux).toBeLessThan(stepIndex((s) => s.run === 'npm run test:electron'));
  });

  it('packages unpacked on every push and full installers on tags, and uploads the result', () => {
    const dir = steps.find((s) => /electron-builder .*--dir/.test(s.run ?? ''));
    const full = steps.find((s) => /electron-builder /.test(s.run ?? '') && !/--dir/.test(s.run ?? ''));
    expect(dir?.if).toBe("${{ !startsWith(github.ref, 'refs/tags/') }}");
    expect(full?.if).toBe("startsWith(github.ref, 'refs/tags/')");
    for (const step of [dir, full]) expect(step?.run).toContain('--config electron-builder.yml');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@') && String(s.with?.path).includes('out/'));
    expect(upload?.with).toMatchObject({ 'if-no-files-found': 'error' });
  });
});
