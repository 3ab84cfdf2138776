// Reading a pod: what its status says about the sandbox container (running, how it ended, stuck), and a
// watch of one pod until that says enough. Pure but for the watch.
import type { V1Pod, Watch } from '@kubernetes/client-node';
import type { SandboxExit } from '../backend.js';
import { SANDBOX_CONTAINER } from './pod-manifest.js';

/** Waiting reasons that will not resolve by waiting longer. */
export const STUCK = /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError|CreateContainerError|RunContainerError/;

export type PodState = { phase: string; running: boolean; terminated?: { exitCode: number; reason?: string }; waitingReason?: string; waitingMessage?: string; podReason?: string };

/** Pure: what a pod's status says about its one container. */
export function podState(pod: V1Pod): PodState {
  const status = pod.status ?? {};
  const container = status.containerStatuses?.find((c) => c.name === SANDBOX_CONTAINER);
  const terminated = container?.state?.terminated;
  const waiting = container?.state?.waiting;
  return {
    phase: status.phase ?? 'Pending',
    running: Boolean(container?.state?.running),
    ...(terminated ? { terminated: { exitCode: terminated.exitCode, ...(terminated.reason ? { reason: terminated.reason } : {}) } } : {}),
    ...(waiting?.reason ? { waitingReason: waiting.reason } : {}),
    ...(waiting?.message ? { waitingMessage: waiting.message } : {}),
    ...(status.reason ? { podReason: status.reason } : {}),
  };
}

/** Pure: `terminated.reason` (and the pod's own reason for the deadline) to a SandboxExit. */
export function exitFromPod(state: PodState): SandboxExit | null {
  if (state.podReason === 'DeadlineExceeded') return { exitCode: state.terminated?.exitCode ?? 137, reason: 'deadline', detail: 'DeadlineExceeded' };
  if (!state.terminated) return state.phase === 'Failed' || state.phase === 'Succeeded' ? { exitCode: null, reason: 'unknown', detail: state.podReason ?? state.phase } : null;
  const { exitCode, reason } = state.terminated;
  if (reason === 'OOMKilled') return { exitCode: 137, reason: 'oom', detail: reason };
  return { exitCode, reason: exitCode === 0 ? 'completed' : 'error', ...(reason ? { detail: reason } : {}) };
}

/** Watches one pod until `until` says done (or throws); resolves with the last state seen. */
export function watchPod(watcher: Watch, namespace: string, name: string, until: (state: PodState) => boolean, timeoutMs: number): Promise<PodState> {
  return new Promise<PodState>((resolve, reject) => {
    let controller: { abort(): void } | undefined;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      controller?.abort();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`pod ${name} did not reach the expected state within ${timeoutMs / 1000}s`))), timeoutMs);
    const check = (pod: V1Pod) => {
      try {
        const state = podState(pod);
        if (until(state)) settle(() => resolve(state));
      } catch (err) {
        settle(() => reject(err));
      }
    };
    void watcher
      .watch(
        `/api/v1/namespaces/${namespace}/pods`,
        { fieldSelector: `metadata.name=${name}` },
        (type, pod: V1Pod) => {
          if (type === 'DELETED') settle(() => reject(new Error(`pod ${name} was deleted`)));
          else check(pod);
        },
        (err) => {
          if (!settled) settle(() => reject(err instanceof Error ? err : new Error(`the watch of pod ${name} ended`)));
        },
      )
      .then((c) => {
        controller = c;
        if (settled) c.abort();
      }, (err: unknown) => settle(() => reject(err instanceof Error ? err : new Error(String(err)))));
  });
}
