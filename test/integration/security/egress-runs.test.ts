// Egress through the host in real sandboxes (issue 26), against upstreams this test starts on 127.0.0.1: plain
// HTTP allowed; refusals as 403 `sandbar: egress refused:` (not allowed, a deny rule over an allow, a name
// resolving to loopback unless the literal is allowed); HTTPS to a secret's host intercepted with the
// instance's CA (urllib, requests and raw ssl verify through the bundle) and the upstream verified against
// egressCaFile; the secret added for its host only, never inside the sandbox (env, /proc); other HTTPS
// tunnelled untouched; raw sockets still fail; records in the result, in executions.get (history) and as
// events; refused lines in the result text; a session under the same rules (and back at a checkpoint); a flood of CONNECTs bounded;
// nothing left behind. One run holds most assertions: container starts are the cost.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type SandbarCore } from '../../../electron/core.js';
import { runToolResult } from '../../../electron/mcp/tool-result.js';
import type { EgressRecord } from '../../../shared/egress-audit.js';
import { containersOf, sandbox, underGvisor, waitFor } from '../helpers.js';
import { startUpstream, upstreamPki, type Upstream } from '../fixtures/upstream-tls.js';

const SECRET = `sk-egress-it-${process.pid}-${Date.now().toString(36)}`;
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandbar-egress-it-')));
const home = path.join(base, 'home');
mkdirSync(home);

// The sandbox's checks; PORTS are put in by the test. Every answer is printed as JSON for the host to judge.
const CHECKS = String.raw`
import json, os, socket, ssl, urllib.request, urllib.error, http.client
import requests
A, B, C, D, UPSTREAM_CA = __PORTS__
out = {"env": {k: os.environ.get(k) for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "NO_PROXY", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "API_TOKEN")}}
def get(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return [r.status, json.loads(r.read())]
    except urllib.error.HTTPError as e:
        return [e.code, e.read().decode()]
    except Exception as e:
        return ["error", repr(e)]
out["plain"] = get("http://127.0.0.1:%d/plain?q=1" % A)
out["other_host"] = get("http://127.0.0.1:%d/other" % A, {"Authorization": "Bearer " + os.environ.get("API_TOKEN", "")})
out["localhost_literal"] = get("http://localhost:%d/by-name" % A)
out["not_allowed"] = get("http://not-allowed.invalid/x")
out["denied"] = get("http://bad.example.test/x")
out["private"] = get("http://localhost:%d/private" % D)
out["urllib_https"] = get("https://127.0.0.1:%d/urllib" % B)
try:
    r = requests.get("https://127.0.0.1:%d/requests" % B, headers={"Authorization": "Bearer mine"}, timeout=30)
    out["requests_https"] = [r.status_code, r.json()]
except Exception as e:
    out["requests_https"] = ["error", repr(e)]
with requests.Session() as kept:  # one kept-alive connection to the proxy, two requests on it
    out["kept_alive"] = [kept.get("http://127.0.0.1:%d/kept-%d" % (A, i), timeout=30).json()["path"] for i in (1, 2)]
out["upload"] = requests.post("http://127.0.0.1:%d/upload" % A, data=b"u" * (5 * 1024 * 1024), timeout=60).json()["path"]
proxy = int(os.environ["HTTPS_PROXY"].rsplit(":", 1)[1])
def raw_ssl(port, ctx, path):
    s = socket.create_connection(("127.0.0.1", proxy), timeout=30)
    s.sendall(b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port))
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    t = ctx.wrap_socket(s, server_hostname="127.0.0.1")
    t.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        chunk = t.recv(65536)
        if not chunk:
            break
        data += chunk
    t.close()
    return data.split(b"\r\n", 1)[0].decode()
try:
    out["raw_ssl"] = raw_ssl(B, ssl.create_default_context(), "/raw-ssl")
except Exception as e:
    out["raw_ssl"] = "error " + repr(e)
# A host without a secret is tunnelled: its own certificate arrives, which only its CA verifies.
try:
    out["tunnel"] = raw_ssl(C, ssl.create_default_context(cadata=UPSTREAM_CA), "/tunnel")
except Exception as e:
    out["tunnel"] = "error " + repr(e)
try:
    out["tunnel_bundle"] = raw_ssl(C, ssl.create_default_context(), "/tunnel-bundle")
except Exception as e:
    out["tunnel_bundle"] = "error " + repr(e)
def raw(host, port):
    try:
        socket.create_connection((host, port), timeout=5).close()
        return "connected"
    except OSError as e:
        return type(e).__name__
out["raw_sockets"] = [raw("127.0.0.1", A), raw("10.0.0.1", 80), raw("1.1.1.1", 443)]
import subprocess
child = subprocess.Popen(["sleep", "30"])  # a process started with the run's environment
seen = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        for name in ("environ", "cmdline"):
            try:
                seen.append(open("/proc/%s/%s" % (pid, name), "rb").read().decode("utf-8", "replace"))
            except OSError:
                pass
out["proc"] = seen
child.kill()
out["bundle"] = open(os.environ["SSL_CERT_FILE"]).read()[-2000:] if os.environ.get("SSL_CERT_FILE") else None
# A flood: CONNECTs held open (at most 32 at once), then opened and closed one by one (100 in the run).
def connect():
    try:
        s = socket.create_connection(("127.0.0.1", proxy), timeout=10)
        s.sendall(b"CONNECT 127.0.0.1:%d HTTP/1.1\r\n\r\n" % C)
        line = s.recv(64)
        return s, (line.split(b" ")[1].decode() if line else "closed")
    except Exception as e:
        return None, type(e).__name__
held, statuses = [], []
for i in range(40):
    s, status = connect()
    statuses.append(status)
    held.append(s)
for s in held:
    if s:
        s.close()
import time
time.sleep(1)
for i in range(90):
    s, status = connect()
    statuses.append(status)
    if s:
        s.close()
out["flood"] = statuses
print(json.dumps(out))
`;

describe.skipIf(!sandbox.available)('egress through the host in real sandboxes', () => {
  let core: SandbarCore | undefined;
  let plain: Upstream, secretHost: Upstream, tunnelHost: Upstream, spare: Upstream;
  let caPem = '';

  beforeAll(async () => {
    const pki = await upstreamPki();
    caPem = pki.caPem;
    [plain, secretHost, tunnelHost, spare] = await Promise.all([startUpstream(), startUpstream(pki), startUpstream(pki), startUpstream()]);
    writeFileSync(path.join(base, 'upstream-ca.pem'), pki.caPem);
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({
      poolSize: 1,
      preload: [],
      ...(sandbox.runtime?.ociRuntime ? { ociRuntime: sandbox.runtime.ociRuntime } : {}),
      egress: {
        allow: [`127.0.0.1:${plain.port}`, `127.0.0.1:${secretHost.port}`, `127.0.0.1:${tunnelHost.port}`, `localhost:${spare.port}`, '*.example.test'],
        deny: ['bad.example.test'],
      },
      secrets: { API_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${secretHost.port}`] } },
      egressCaFile: path.join(base, 'upstream-ca.pem'),
      egressMaxConnections: 100,
    }));
  });

  afterAll(async () => {
    await core?.dispose();
    await Promise.all([plain, secretHost, tunnelHost, spare].map((u) => u?.close()));
    rmSync(base, { recursive: true, force: true });
  });

  it('allows, refuses, injects only for its host, verifies through the bundle, records, and stays bounded', async () => {
    core = createCore({ env: { ...process.env, SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image } });
    await core.start();
    // A pooled sandbox made before any run: the proxy reaches it at the run's start.
    expect(await waitFor(() => core!.engine.snapshot().pool.ready >= 1, 90_000, 200)).toBe(true);
    const events: EgressRecord[] = [];
    core.engine.subscribe((e) => {
      if (e.type === 'egress') events.push(e.record);
    });
    const code = CHECKS.replace('__PORTS__', JSON.stringify([plain.port, secretHost.port, tunnelHost.port, spare.port, caPem]));
    const { execution: r } = await (await core.runs.start({ code, timeoutSec: 120 }, { client: { name: 'egress-test' } })).result;
    expect(r.exitReason, r.stderr || r.message).toBe('success');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    const env = out.env as Record<string, string | null>;
    expect(env.HTTP_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const k of ['HTTPS_PROXY', 'http_proxy', 'https_proxy']) expect(env[k]).toBe(env.HTTP_PROXY);
    expect(env.NO_PROXY).toBeNull();
    expect(env.SSL_CERT_FILE).toBe(env.REQUESTS_CA_BUNDLE);
    expect(env.API_TOKEN).toBe('sandbar-secret-placeholder-API_TOKEN');

    expect(out.plain).toEqual([200, { ok: true, path: '/plain?q=1' }]);
    expect(out.localhost_literal).toEqual([200, { ok: true, path: '/by-name' }]);
    expect(out.kept_alive).toEqual(['/kept-1', '/kept-2']);
    // 5 MiB up: past the tunnel's 4 MiB buffer bound, carried whole because the agent keeps to its window.
    expect(out.upload).toBe('/upload');
    expect(plain.seen.find((s) => s.path === '/upload')?.bytes).toBe(5 * 1024 * 1024);
    const refused = (v: unknown) => v as [number, string];
    expect(refused(out.not_allowed)[0]).toBe(403);
    expect(refused(out.not_allowed)[1]).toMatch(/^sandbar: egress refused: not-allowed\.invalid:80: not allowed/);
    expect(refused(out.denied)[1]).toMatch(/^sandbar: egress refused: bad\.example\.test:80: denied by a rule \(bad\.example\.test\)/);
    expect(refused(out.private)[1]).toMatch(new RegExp(`^sandbar: egress refused: localhost:${spare.port}: private address`));
    expect(spare.seen).toEqual([]);

    // The secret: added by the host for its own host (whatever the code sent), a placeholder anywhere else.
    expect(out.urllib_https).toEqual([200, { ok: true, path: '/urllib' }]);
    expect(out.requests_https).toEqual([200, { ok: true, path: '/requests' }]);
    expect(out.raw_ssl).toBe('HTTP/1.1 200 OK');
    expect(secretHost.seen.map((s) => [s.path, s.headers.authorization])).toEqual([
      ['/urllib', `Bearer ${SECRET}`],
      ['/requests', `Bearer ${SECRET}`],
      ['/raw-ssl', `Bearer ${SECRET}`],
    ]);
    expect(plain.seen.find((s) => s.path === '/other')?.headers.authorization).toBe('Bearer sandbar-secret-placeholder-API_TOKEN');
    // Tunnelled, not intercepted: the upstream's own certificate reached the sandbox.
    expect(out.tunnel).toBe('HTTP/1.1 200 OK');
    expect(out.tunnel_bundle).toMatch(/CERTIFICATE_VERIFY_FAILED/);
    expect(tunnelHost.seen.map((s) => [s.path, s.headers.authorization])).toEqual([['/tunnel', undefined]]);
    // No way out but the proxy: the sandbox's own loopback has nothing there, and no other network exists.
    expect((out.raw_sockets as string[])[0]).toBe('ConnectionRefusedError');
    expect((out.raw_sockets as string[]).slice(1).every((e) => e !== 'connected')).toBe(true);
    expect(out.bundle).toContain('-----END CERTIFICATE-----');
    expect((out.proc as string[]).length).toBeGreaterThan(2);
    expect(r.stdout).not.toContain(SECRET);

    // The flood: at most 32 tunnels at once, then refusals; the run's 100 connections are the ceiling.
    const flood = out.flood as string[];
    expect(flood.slice(0, 40).filter((s) => s === '200').length, flood.join(' ')).toBe(32);
    expect(flood.slice(0, 40).filter((s) => s === '403').length, flood.join(' ')).toBe(8);
    expect(flood.slice(40).filter((s) => s === '403').length, flood.join(' ')).toBeGreaterThan(10);

    // Records: in the result, as events while running, in executions.get (history), refusals in the result text.
    const records = r.egress ?? [];
    const denied = records.filter((x) => x.decision === 'denied');
    expect(records.find((x) => x.path === '/plain')).toMatchObject({ host: '127.0.0.1', port: plain.port, decision: 'allowed', method: 'GET', status: 200 });
    expect(records.filter((x) => x.secret === 'API_TOKEN').map((x) => x.path)).toEqual(['/urllib', '/requests', '/raw-ssl']);
    expect(denied.map((x) => x.reason)).toEqual(expect.arrayContaining(['not allowed', 'denied by a rule (bad.example.test)', expect.stringMatching(/^private address/), expect.stringMatching(/open at once/), expect.stringMatching(/opened its 100 connections/)]));
    expect(JSON.stringify(records)).not.toContain(SECRET);
    // Each kept record was also sent as an event while the run went.
    expect(events.slice(0, records.length)).toEqual(records);
    await waitFor(() => core!.history.get(r.id)?.status === 'success', 5000);
    const detail = core.history.get(r.id)!;
    expect(detail.egress).toEqual(records);
    expect(detail.egressDropped).toBe(r.egressDropped ?? 0);
    const text = (runToolResult(r, [], 'compact').content[0] as { text: string }).text;
    expect(text).toContain('egress refused: not-allowed.invalid:80 (not allowed)');
    expect(text).toContain('egress refused: bad.example.test:80 (denied by a rule (bad.example.test))');
    expect(text).not.toContain(SECRET);
  });

  it('the sandbox never holds the secret: not in its environment nor anywhere under /proc', async () => {
    // Judged here on what the previous run printed of every process's environ and cmdline.
    const detail = core!.history.list({ limit: 5 }).items[0];
    expect(detail).toBeDefined();
    const run = core!.history.get(detail!.id)!;
    const out = JSON.parse(run.stdout) as { proc: string[] };
    expect(out.proc.join('\n')).toContain('sandbar-secret-placeholder-API_TOKEN');
    expect(out.proc.join('\n')).not.toContain(SECRET);
  });

  it('a session runs under the same rules, each call with its own proxy; nothing is left behind', async () => {
    const caller = { client: { name: 'egress-test' }, credential: 'test:egress' };
    const call = (code: string, session: string) => core!.runs.start({ code, session }, caller);
    const get = `import urllib.request, urllib.error\ntry:\n    print(urllib.request.urlopen("http://127.0.0.1:${plain.port}/session-%d", timeout=30).status)\nexcept urllib.error.HTTPError as e:\n    print(e.code, e.read().decode().strip())\n`;
    const opened = await call(get.replace('%d', '1'), 'new');
    const first = (await opened.result).execution;
    expect(first.stdout, first.stderr).toBe('200\n');
    const second = (await (await call(`${get.replace('%d', '2')}\nprint(urllib.request.urlopen("http://127.0.0.1:${spare.port}/no", timeout=30).status)`, opened.session!.id)).result).execution;
    expect(second.stdout).toContain('200\n');
    expect(second.stderr).toContain('HTTP Error 403');
    expect(first.egress?.map((x) => x.path)).toEqual(['/session-1']);
    expect(second.egress?.map((x) => [x.path, x.decision])).toEqual([['/session-2', 'allowed'], ['/no', 'denied']]);
    if (!underGvisor) {
      // Back to the checkpoint after call 1 (a process forked then): its listener is made anew, egress works.
      const back = (await (await call(get.replace('%d', '3'), `${opened.session!.id}@1`)).result).execution;
      expect(back.stdout, back.stderr || back.message).toBe('200\n');
      expect(back.egress?.map((x) => x.path)).toEqual(['/session-3']);
    }
    await core!.sessions!.close(opened.session!.id);
    await core!.dispose();
    expect(containersOf(core!.engine.owner.instanceId)).toEqual([]);
    core = undefined;
  });
});
