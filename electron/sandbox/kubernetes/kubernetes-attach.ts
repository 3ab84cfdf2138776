// A pod's sandbox container as an attached process: its stdin, stdout and stderr over the attach WebSocket,
// ended when the pod is (the status frame alone is not trusted), and the finished pod removed.
import { PassThrough } from 'node:stream';
import type { Attach } from '@kubernetes/client-node';
import { errorMessage } from '../../../shared/errors.js';
import type { SandboxExit } from '../backend.js';
import type { AttachedProcess, ProcessExit } from '../run/attached-process.js';
import { SANDBOX_CONTAINER } from './pod-manifest.js';

export async function attachPod(
  attacher: Attach,
  namespace: string,
  name: string,
  pod: { wait(name: string): Promise<SandboxExit>; remove(name: string): Promise<void> },
): Promise<AttachedProcess> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const ws = await attacher.attach(namespace, name, SANDBOX_CONTAINER, stdout, stderr, stdin, false);
  const exited: Promise<ProcessExit> = pod.wait(name).then(
    (exit) => ({ exitCode: exit.exitCode, signal: null }),
    (err: unknown) => ({ exitCode: null, signal: null, spawnError: errorMessage(err) }),
  );
  // The status frame ends stdout; make sure it ends when the pod does, whatever the server sends. A
  // finished pod is deleted: Kubernetes keeps terminated pods until someone does.
  void exited.then(() => {
    if (!stdout.writableEnded) stdout.end();
    if (!stderr.writableEnded) stderr.end();
    ws.close();
    void pod.remove(name).catch(() => {});
  });
  return { pid: undefined, stdin, stdout, stderr, exited, kill: () => ws.close() };
}
