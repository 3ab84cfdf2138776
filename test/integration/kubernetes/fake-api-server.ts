// A loopback stand-in for the Kubernetes API server, just enough for the real @kubernetes/client-node:
// pods (create, get, list by label, merge-patch and delete with resourceVersion preconditions), watch
// streams, the attach WebSocket (channel protocol v4/v5) and NetworkPolicies. A pod's command runs as a host process (a kubelet stand-in), so the agent's
// frames really travel over the attach stream. It records every request and refuses a missing token.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface FakePod {
  pod: Json;
  proc?: ChildProcess;
  sockets: Set<WebSocket>;
  /** Set by `oomKill`: the reason the kubelet would report. */
  killReason?: string;
}

export const FAKE_TOKEN = 'fake-token';

export class FakeKubeApi {
  readonly requests: { method: string; path: string }[] = [];
  readonly pods = new Map<string, FakePod>();
  readonly policies = new Map<string, Json>();
  /** Pod bodies as received, for assertions on what the client sent. */
  readonly created: Json[] = [];
  /** Images for which the fake kubelet reports ErrImagePull. */
  readonly missingImages = new Set<string>();
  /** Localhost seccomp profiles installed on the fake node; a pod asking for another one cannot start. */
  readonly seccompProfiles = new Set<string>();
  /** Outcomes of conditional writes (PATCH, DELETE with preconditions), for the race tests. */
  readonly conditional: { method: string; name: string; status: number; labels?: Record<string, string> }[] = [];
  private readonly watchers = new Set<{ name: string | null; res: ServerResponse }>();
  private version = 1;
  private held: { method: string; count: number; waiting: (() => void)[] } | undefined;
  /** More API (CRDs and their controller, see fake-agent-sandbox.ts): an answer, or undefined to fall through. */
  extension: ((method: string, url: URL, body: Json | undefined) => { code: number; body: Json } | undefined) | undefined;
  private server: Server | undefined;
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('v5.channel.k8s.io') ? 'v5.channel.k8s.io' : protocols.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  private readonly workdir = mkdtempSync(path.join(tmpdir(), 'sandbar-fake-kube-'));
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (!this.authorized(req)) return socket.destroy();
      const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/attach\?/.exec(req.url ?? '');
      const entry = m ? this.pods.get(m[2]!) : undefined;
      this.requests.push({ method: 'WS', path: req.url ?? '' });
      if (!entry?.proc) return socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(entry, ws));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const entry of this.pods.values()) entry.proc?.kill('SIGKILL');
    for (const w of this.watchers) w.res.end();
    this.wss.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
    rmSync(this.workdir, { recursive: true, force: true });
  }

  kubeconfig(): Json {
    return {
      clusters: [{ name: 'fake', server: `http://127.0.0.1:${this.port}`, skipTLSVerify: true }],
      users: [{ name: 'fake-user', token: FAKE_TOKEN }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'fake-user' }],
      currentContext: 'fake',
    };
  }

  /** What the kubelet does when the container passes its memory limit. */
  oomKill(name: string): void {
    const entry = this.pods.get(name);
    if (!entry?.proc) throw new Error(`no running pod ${name}`);
    entry.killReason = 'OOMKilled';
    entry.proc.kill('SIGKILL');
  }

  /** A pod left behind by someone else (another Sandbar), not started. */
  addPod(pod: Json): void {
    this.pods.set(pod.metadata.name, { pod: this.stamp({ ...pod, status: { phase: 'Running' } }), sockets: new Set() });
  }

  /**
   * Holds requests of `method` until `count` of them have arrived, then lets them through in arrival order:
   * two claimers then surely patch with the same resourceVersion, as two instances racing on a real cluster.
   */
  holdUntil(method: string, count: number): void {
    this.held = { method, count, waiting: [] };
  }

  private async gate(method: string): Promise<void> {
    const held = this.held;
    if (!held || held.method !== method) return;
    await new Promise<void>((resolve) => {
      held.waiting.push(resolve);
      if (held.waiting.length >= held.count) {
        this.held = undefined;
        // One at a time, in order: each write completes before the next is looked at.
        void (async () => {
          for (const release of held.waiting) {
            release();
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
      }
    });
  }

  /** Someone else changes a pod's labels (another instance adopting it), which bumps its resourceVersion. Null deletes. */
  relabel(name: string, changes: Record<string, string | null>): void {
    const entry = this.pods.get(name)!;
    const labels: Record<string, string> = { ...entry.pod.metadata.labels };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete labels[key];
      else labels[key] = value;
    }
    entry.pod = this.stamp({ ...entry.pod, metadata: { ...entry.pod.metadata, labels } });
    this.notify('MODIFIED', entry.pod);
  }

  /** Every write gets a new resourceVersion, like etcd's revision. */
  private stamp(pod: Json): Json {
    const metadata = { creationTimestamp: new Date().toISOString(), ...pod.metadata, resourceVersion: String(++this.version) };
    return { ...pod, metadata };
  }

  private authorized(req: IncomingMessage): boolean {
    return req.headers.authorization === `Bearer ${FAKE_TOKEN}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search });
    if (!this.authorized(req)) return this.status(res, 401, 'Unauthorized');
    const raw = req.method === 'GET' ? '' : await text(req);
    const body = raw ? (JSON.parse(raw) as Json) : undefined;
    await this.gate(req.method ?? '');

    const policy = /^\/apis\/networking\.k8s\.io\/v1\/namespaces\/([^/]+)\/networkpolicies$/.exec(url.pathname);
    if (policy && req.method === 'POST') {
      const key = `${policy[1]}/${body!.metadata.name}`;
      if (this.policies.has(key)) return this.status(res, 409, 'AlreadyExists');
      this.policies.set(key, body!);
      return this.json(res, 201, body!);
    }
    const pods = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    if (pods && req.method === 'POST') return this.createPod(res, body!);
    if (pods && req.method === 'GET' && url.searchParams.get('watch') === 'true') return this.watch(url, res);
    if (pods && req.method === 'GET') {
      const selector = url.searchParams.get('labelSelector');
      const items = [...this.pods.values()].map((p) => p.pod).filter((pod) => matches(pod, selector));
      return this.json(res, 200, { apiVersion: 'v1', kind: 'PodList', metadata: {}, items });
    }
    const one = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/.exec(url.pathname);
    if (one && req.method === 'GET') {
      const entry = this.pods.get(one[2]!);
      return entry ? this.json(res, 200, entry.pod) : this.status(res, 404, 'NotFound');
    }
    if (one && req.method === 'PATCH') {
      const entry = this.pods.get(one[2]!);
      if (!entry) return this.status(res, 404, 'NotFound');
      if (req.headers['content-type'] !== 'application/merge-patch+json') return this.status(res, 415, 'UnsupportedMediaType');
      const expected = body?.metadata?.resourceVersion;
      const conflict = expected !== undefined && expected !== entry.pod.metadata.resourceVersion;
      this.conditional.push({ method: 'PATCH', name: one[2]!, status: conflict ? 409 : 200, labels: body?.metadata?.labels });
      if (conflict) return this.status(res, 409, 'Conflict');
      const labels: Record<string, string> = { ...entry.pod.metadata.labels };
      for (const [key, value] of Object.entries((body?.metadata?.labels ?? {}) as Record<string, string | null>)) {
        if (value === null) delete labels[key];
        else labels[key] = value;
      }
      entry.pod = this.stamp({ ...entry.pod, metadata: { ...entry.pod.metadata, labels } });
      this.notify('MODIFIED', entry.pod);
      return this.json(res, 200, entry.pod);
    }
    if (one && req.method === 'DELETE') {
      const entry = this.pods.get(one[2]!);
      if (!entry) return this.status(res, 404, 'NotFound');
      const expected = body?.preconditions?.resourceVersion;
      if (expected !== undefined) {
        const conflict = expected !== entry.pod.metadata.resourceVersion;
        this.conditional.push({ method: 'DELETE', name: one[2]!, status: conflict ? 409 : 200 });
        if (conflict) return this.status(res, 409, 'Conflict');
      }
      this.pods.delete(one[2]!);
      entry.proc?.kill('SIGKILL');
      this.notify('DELETED', entry.pod);
      return this.json(res, 200, entry.pod);
    }
    const answer = this.extension?.(req.method ?? '', url, body);
    if (answer) return this.json(res, answer.code, answer.body);
    // Discovery: the built-in groups only, unless an extension (CRDs) says otherwise.
    if (url.pathname === '/apis' && req.method === 'GET') return this.json(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    return this.status(res, 404, 'NotFound');
  }

  private createPod(res: ServerResponse, body: Json): void {
    const pod = this.launchPod(body);
    if (!pod) return this.status(res, 409, 'AlreadyExists');
    this.json(res, 201, pod);
  }

  /** What the kubelet does with a new pod (also how a controller stand-in makes one); null if the name is taken. */
  launchPod(body: Json): Json | null {
    const name = body.metadata.name as string;
    if (this.pods.has(name)) return null;
    this.created.push(structuredClone(body));
    const pod: Json = this.stamp({ ...body, status: { phase: 'Pending', containerStatuses: [] } });
    const entry: FakePod = { pod, sockets: new Set() };
    this.pods.set(name, entry);
    const container = body.spec.containers[0];
    setTimeout(() => {
      if (!this.pods.has(name)) return;
      if (this.missingImages.has(container.image)) {
        this.setStatus(entry, { phase: 'Pending', containerStatuses: [{ name: container.name, state: { waiting: { reason: 'ErrImagePull', message: `pull access denied for ${container.image}` } } }] });
        return;
      }
      const seccomp = body.spec.securityContext?.seccompProfile;
      if (seccomp?.type === 'Localhost' && !this.seccompProfiles.has(seccomp.localhostProfile)) {
        this.setStatus(entry, { phase: 'Pending', containerStatuses: [{ name: container.name, state: { waiting: { reason: 'CreateContainerError', message: `failed to generate seccomp spec opts: cannot load seccomp profile "${seccomp.localhostProfile}": no such file` } } }] });
        return;
      }
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: this.workdir };
      for (const e of container.env ?? []) if (e.name !== 'HOME') env[e.name] = e.value;
      const [cmd, ...args] = container.command as string[];
      entry.proc = spawn(cmd!, args, { cwd: this.workdir, env, stdio: ['pipe', 'pipe', 'pipe'] });
      entry.proc.stdin!.on('error', () => {});
      entry.proc.on('exit', (code, signal) => {
        const exitCode = code ?? (signal === 'SIGKILL' ? 137 : 1);
        const reason = entry.killReason ?? (exitCode === 0 ? 'Completed' : 'Error');
        for (const ws of entry.sockets) {
          ws.send(Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify({ status: exitCode === 0 ? 'Success' : 'Failure' }))]));
          ws.close();
        }
        if (!this.pods.has(name)) return;
        this.setStatus(entry, { phase: exitCode === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: container.name, state: { terminated: { exitCode, reason } } }] });
      });
      this.setStatus(entry, { phase: 'Running', containerStatuses: [{ name: container.name, state: { running: { startedAt: new Date().toISOString() } } }] });
    }, 30);
    return pod;
  }

  /** Deletes a pod as the API server would (its process is killed, watchers told). */
  removePod(name: string): void {
    const entry = this.pods.get(name);
    if (!entry) return;
    this.pods.delete(name);
    entry.proc?.kill('SIGKILL');
    this.notify('DELETED', entry.pod);
  }

  private attach(entry: FakePod, ws: WebSocket): void {
    entry.sockets.add(ws);
    const proc = entry.proc!;
    const forward = (channel: number) => (chunk: Buffer) => {
      if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), chunk]));
    };
    const onOut = forward(1);
    const onErr = forward(2);
    proc.stdout!.on('data', onOut);
    proc.stderr!.on('data', onErr);
    ws.on('message', (data: Buffer) => {
      const channel = data[0];
      if (channel === 0) proc.stdin!.write(data.subarray(1));
      else if (channel === 255 && data[1] === 0) proc.stdin!.end();
    });
    ws.on('close', () => {
      entry.sockets.delete(ws);
      proc.stdout!.off('data', onOut);
      proc.stderr!.off('data', onErr);
    });
  }

  private watch(url: URL, res: ServerResponse): void {
    const field = url.searchParams.get('fieldSelector') ?? '';
    const name = /^metadata\.name=(.+)$/.exec(field)?.[1] ?? null;
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const watcher = { name, res };
    this.watchers.add(watcher);
    res.on('close', () => this.watchers.delete(watcher));
    for (const entry of this.pods.values()) {
      if (!name || entry.pod.metadata.name === name) res.write(`${JSON.stringify({ type: 'ADDED', object: entry.pod })}\n`);
    }
  }

  private setStatus(entry: FakePod, status: Json): void {
    entry.pod = this.stamp({ ...entry.pod, status });
    this.notify('MODIFIED', entry.pod);
  }

  private notify(type: string, pod: Json): void {
    for (const w of this.watchers) {
      if (!w.name || w.name === pod.metadata.name) w.res.write(`${JSON.stringify({ type, object: pod })}\n`);
    }
  }

  private json(res: ServerResponse, code: number, body: Json): void {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private status(res: ServerResponse, code: number, reason: string): void {
    this.json(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message: reason });
  }
}

function matches(pod: Json, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return pod.metadata.labels?.[key!] === value;
  });
}

function text(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
