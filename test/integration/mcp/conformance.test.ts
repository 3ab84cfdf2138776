// The official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22) against a
// real `sandbar serve`, through a loopback proxy that adds the client token (the suite sends none). Every
// scenario that applies to a server whose one tool is run_python runs and must pass; the others test the
// suite's own fixture tools, prompts or completions (see NOT_APPLICABLE). In CI a missing Node 22 or a
// failed install fails; locally the suite is skipped and says why.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStrictCi } from '../../ci-mode.js';
import { startServe, type Served } from '../../e2e/serve-process.js';
import { sandbox } from '../helpers.js';
import { startAuthProxy, type AuthProxy } from './conformance-proxy.js';

const run = promisify(execFile);
const ROOT = path.resolve('.');
const CONFORMANCE_VERSION = '0.1.16';
const PREFIX = path.join(ROOT, '.cache/mcp-conformance');
const BIN = path.join(PREFIX, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE22 = [process.env.SANDBAR_NODE22, path.join(ROOT, '.cache/node22/node_modules/.bin/node')].find((p): p is string => !!p && existsSync(p));

/** Server scenarios that apply to Sandbar (generic protocol behaviour), in the suite's own order. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'logging-set-level', 'server-sse-multiple-streams', 'dns-rebinding-protection'];
/** Why each other server scenario of 0.1.16 does not apply: it calls a fixture of the suite's own server. */
const NOT_APPLICABLE: Record<string, string> = {
  'completion-complete': 'completes the suite\'s prompt test_prompt_with_arguments (Sandbar offers no prompts or completions)',
  'server-sse-polling': 'calls the suite\'s test_reconnection tool',
  'json-schema-2020-12': 'lists the suite\'s json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'calls the suite\'s elicitation fixture tool',
  'elicitation-sep1330-enums': 'calls the suite\'s test_elicitation_sep1330_enums tool',
  'resources-read-text': 'reads the suite\'s test:// resources',
  'resources-read-binary': 'reads the suite\'s test:// resources',
  'resources-templates-read': 'reads the suite\'s resource templates',
  'resources-subscribe': 'subscribes to the suite\'s test:// resources',
  'resources-unsubscribe': 'subscribes to the suite\'s test:// resources',
  ...Object.fromEntries(
    ['simple-text', 'image', 'audio', 'embedded-resource', 'mixed-content', 'with-logging', 'error', 'with-progress', 'sampling', 'elicitation'].map((t) => [`tools-call-${t}`, 'calls one of the suite\'s test_* tools']),
  ),
  ...Object.fromEntries(['prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image'].map((p) => [p, 'uses the suite\'s prompts (Sandbar offers none)'])),
};

/** Installs the pinned suite into .cache (as .ci/run does); returns why it could not, or null. */
async function ensureSuite(): Promise<string | null> {
  if (existsSync(BIN)) return null;
  try {
    await run('npm', ['install', '--prefix', PREFIX, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`], { timeout: 300_000 });
  } catch (err) {
    return `npm could not install @modelcontextprotocol/conformance@${CONFORMANCE_VERSION}: ${(err as { stderr?: string }).stderr || String(err)}`;
  }
  return existsSync(BIN) ? null : `the install left no ${BIN}`;
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
}

describe.skipIf(!sandbox.available)('the official MCP conformance suite against sandbar serve', () => {
  const strict = isStrictCi();
  let missing: string | null = NODE22 ? null : 'no Node 22 (.ci/run installs it into .cache/node22; or set SANDBAR_NODE22)';
  let served: Served | undefined;
  let proxy: AuthProxy | undefined;

  beforeAll(async () => {
    missing ??= await ensureSuite();
    if (missing) {
      if (strict) throw new Error(`conformance suite: ${missing}`);
      console.warn(`conformance suite skipped: ${missing}`);
      return;
    }
    served = await startServe({ image: sandbox.image, settings: { poolSize: 0, mcpServers: {} } });
    proxy = await startAuthProxy(new URL(served.mcpUrl), served.clientToken);
  }, 400_000);
  afterAll(async () => {
    await proxy?.close();
    await served?.stop();
  });

  /** Runs one scenario with Node 22; its exit status and the checks it saved. */
  async function scenario(name: string): Promise<{ status: number; checks: Check[]; output: string }> {
    const out = mkdtempSync(path.join(tmpdir(), 'sandbar-conformance-'));
    const result = await run(NODE22!, [BIN, 'server', '--url', proxy!.url, '--scenario', name, '-o', out], { timeout: 120_000 }).then(
      (r) => ({ status: 0, output: r.stdout + r.stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ status: typeof err.code === 'number' ? err.code : 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
    );
    const dirs = readdirSync(out);
    const checks = dirs.length === 1 ? (JSON.parse(readFileSync(path.join(out, dirs[0]!, 'checks.json'), 'utf8')) as Check[]) : [];
    return { ...result, checks };
  }

  it('lists the scenarios this test accounts for: each applies and runs, or says why not', async (ctx) => {
    if (missing) return ctx.skip(missing);
    const { stdout } = await run(NODE22!, [BIN, 'list', '--server']);
    const listed = [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    // A scenario added by a newer suite must be looked at: run it here, or say why it does not apply.
    expect(listed.filter((s) => !APPLICABLE.includes(s) && !(s in NOT_APPLICABLE))).toEqual([]);
    expect(APPLICABLE.filter((s) => !listed.includes(s))).toEqual([]);
  });

  it.for(APPLICABLE)('%s passes', { timeout: 150_000 }, async (name, ctx) => {
    if (missing) return ctx.skip(missing);
    const { status, checks, output } = await scenario(name);
    const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    expect(failed, output).toEqual([]);
    expect(checks.filter((c) => c.status === 'SUCCESS').length, output).toBeGreaterThan(0);
    expect(status, output).toBe(0);
  });
});
