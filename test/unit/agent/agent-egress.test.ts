// The agent's side of egress (egress.py) on the host: with `egress` in the start frame the code gets the proxy
// variables, a CA bundle with the instance's CA and placeholders, and a connection to the loopback listener
// travels as egress_open/data/end/close frames both ways, in chunks of at most 48 KiB; without it nothing changes.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { Agent, run, SUITE, type Frame } from './agent-harness.js';

const CA = '-----BEGIN CERTIFICATE-----\nTESTCA\n-----END CERTIFICATE-----\n';
const VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'API_KEY'];

const CODE = String.raw`
import json, os, socket
env = {k: os.environ.get(k) for k in ${JSON.stringify(VARS)}}
port = int(os.environ["HTTP_PROXY"].rsplit(":", 1)[1])
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"x" * 200000)
s.shutdown(socket.SHUT_WR)
got = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    got += chunk
s.close()
bundle = open(os.environ["SSL_CERT_FILE"]).read()
print(json.dumps({"env": env, "got": len(got), "allY": got == b"y" * 300000, "ca": bundle.endswith(${JSON.stringify(CA)})}))
`;

describe('the agent carries egress connections as frames', SUITE, () => {
  it('sets the variables at start and moves bytes both ways through the host', async () => {
    let fromSandbox = 0;
    const sizes: number[] = [];
    const result = await run(CODE, {
      boot: { modules: agentBootModules() },
      start: { egress: { caPem: CA, placeholders: { API_KEY: 'sandbar-secret-placeholder-API_KEY' } } },
      onFrame: (frame: Frame, agent) => {
        if (frame.type === 'egress_data') {
          const bytes = Buffer.from(frame.data as string, 'base64').length;
          sizes.push(bytes);
          fromSandbox += bytes;
        }
        if (frame.type === 'egress_end') {
          const reply = Buffer.alloc(300_000, 'y');
          for (let at = 0; at < reply.length; at += 48 * 1024) agent.send({ type: 'egress_data', id: frame.id, data: reply.subarray(at, at + 48 * 1024).toString('base64') });
          agent.send({ type: 'egress_end', id: frame.id });
        }
      },
    });
    expect(result.code, result.stderr + result.rawStderr).toBe(0);
    const out = JSON.parse(result.stdout) as { env: Record<string, string | null>; got: number; allY: boolean; ca: boolean };
    expect(out.env.HTTP_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const name of ['HTTPS_PROXY', 'http_proxy', 'https_proxy']) expect(out.env[name]).toBe(out.env.HTTP_PROXY);
    expect(out.env.NO_PROXY).toBeNull();
    expect(out.env.REQUESTS_CA_BUNDLE).toBe(out.env.SSL_CERT_FILE);
    expect(out.env.API_KEY).toBe('sandbar-secret-placeholder-API_KEY');
    expect(out).toMatchObject({ got: 300_000, allY: true, ca: true });
    expect(fromSandbox).toBe(200_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(48 * 1024);
    const types = result.frames.filter((f) => f.type.startsWith('egress_')).map((f) => f.type);
    expect(types[0]).toBe('egress_open');
    expect(types.at(-1)).toBe('egress_close');
    expect(new Set(result.frames.filter((f) => f.type.startsWith('egress_')).map((f) => f.id))).toEqual(new Set([1]));
    rmSync(path.dirname(out.env.SSL_CERT_FILE!), { recursive: true, force: true });
  });

  it('without egress in the start frame: no variables, no listener, no frames', async () => {
    const result = await run(`import json, os\nprint(json.dumps({k: os.environ.get(k) for k in ${JSON.stringify(VARS)}}))`, { boot: { modules: agentBootModules() } });
    expect(result.code).toBe(0);
    // Exactly the environment the agent was started with (the host's here; the image's in a sandbox).
    expect(JSON.parse(result.stdout)).toEqual(Object.fromEntries(VARS.map((k) => [k, process.env[k] ?? null])));
    expect(result.frames.some((f) => f.type.startsWith('egress_'))).toBe(false);
  });

  it('in a session, a call without egress takes the variables away again and closes the listener', async () => {
    const agent = new Agent({ modules: agentBootModules() });
    const show = `import json, os, socket\nport = os.environ.get("HTTP_PROXY", ":%d" % PORT).rsplit(":", 1)[1]\ntry:\n    socket.create_connection(("127.0.0.1", int(port)), timeout=2).close(); up = True\nexcept OSError:\n    up = False\nprint(json.dumps([os.environ.get("HTTP_PROXY"), os.environ.get("API_KEY"), os.environ.get("SSL_CERT_FILE"), up]))\nPORT = int(port)`;
    try {
      await agent.waitFor((f) => f.type === 'ready');
      agent.send({ type: 'start', code: 'PORT = 0\n' + show, context: {}, session: true, egress: { caPem: CA, placeholders: { API_KEY: 'p' } } });
      await agent.waitFor((f) => f.type === 'exit');
      agent.send({ type: 'start', code: show, context: {}, session: true });
      await agent.waitFor((f) => f.type === 'exit' && agent.frames.filter((x) => x.type === 'exit').length === 2);
      const [on, off] = agent.stream('stdout').trim().split('\n').map((l) => JSON.parse(l) as [string | null, string | null, string | null, boolean]);
      expect(on![0]).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect(on!.slice(1)).toEqual(['p', expect.stringContaining('sandbar-egress-'), true]);
      rmSync(path.dirname(on![2]!), { recursive: true, force: true });
      expect(off).toEqual([process.env.HTTP_PROXY ?? null, null, process.env.SSL_CERT_FILE ?? null, false]);
    } finally {
      agent.kill();
    }
  });

  it('sends at most its window of unacknowledged bytes: a slow host slows the code down, it is never flooded', async () => {
    const WINDOW = 1024 * 1024;
    let received = 0;
    let acked = 0;
    let most = 0;
    let pending = false;
    const upload = `import os, socket\ns = socket.create_connection(("127.0.0.1", int(os.environ["HTTP_PROXY"].rsplit(":", 1)[1])))\ns.sendall(b"z" * (3 * 1024 * 1024))\ns.shutdown(socket.SHUT_WR)\nprint(s.recv(100).decode())`;
    const result = await run(upload, {
      boot: { modules: agentBootModules() },
      start: { egress: { caPem: '', placeholders: {} } }, // no CA: no bundle file left on this host
      onFrame: (frame: Frame, agent) => {
        if (frame.type === 'egress_data') {
          received += Buffer.from(frame.data as string, 'base64').length;
          most = Math.max(most, received - acked);
          // The host takes nothing until a window's worth waits, then all of it a moment later.
          if (received - acked >= WINDOW && !pending) {
            pending = true;
            setTimeout(() => {
              pending = false;
              agent.send({ type: 'egress_ack', id: frame.id, bytes: received - acked });
              acked = received;
            }, 50);
          }
        }
        if (frame.type === 'egress_end') {
          agent.send({ type: 'egress_data', id: frame.id, data: Buffer.from(`got ${received}`).toString('base64') });
          agent.send({ type: 'egress_end', id: frame.id });
        }
      },
    });
    expect(result.code, result.stderr + result.rawStderr).toBe(0);
    expect(result.stdout).toBe(`got ${3 * 1024 * 1024}\n`);
    expect(most).toBeGreaterThanOrEqual(WINDOW);
    expect(most).toBeLessThan(WINDOW + 48 * 1024);
  });
});
