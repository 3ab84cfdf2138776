// Reading a pod's status: when its container runs, and how it ended (terminated.reason, the deadline).
import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { exitFromPod, podState } from '../../../../electron/sandbox/kubernetes/kubernetes-pod-state.js';

const pod = (status: V1Pod['status']): V1Pod => ({ status });
const terminated = (exitCode: number, reason?: string) =>
  pod({ phase: exitCode === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: 'sandbox', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, ...(reason ? { reason } : {}) } } }] });

describe('podState and exitFromPod', () => {
  it('is running only when the sandbox container runs', () => {
    expect(podState(pod({ phase: 'Pending' })).running).toBe(false);
    const running = podState(pod({ phase: 'Running', containerStatuses: [{ name: 'sandbox', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] }));
    expect(running.running).toBe(true);
    expect(exitFromPod(running)).toBeNull();
  });

  it('maps terminated.reason: OOMKilled is a memory kill with 137, Completed and Error by code', () => {
    expect(exitFromPod(podState(terminated(137, 'OOMKilled')))).toEqual({ exitCode: 137, reason: 'oom', detail: 'OOMKilled' });
    expect(exitFromPod(podState(terminated(0, 'Completed')))).toEqual({ exitCode: 0, reason: 'completed', detail: 'Completed' });
    expect(exitFromPod(podState(terminated(3, 'Error')))).toEqual({ exitCode: 3, reason: 'error', detail: 'Error' });
  });

  it('reports the activeDeadlineSeconds backstop as a deadline, even before the container status says so', () => {
    expect(exitFromPod(podState(pod({ phase: 'Failed', reason: 'DeadlineExceeded' })))).toEqual({ exitCode: 137, reason: 'deadline', detail: 'DeadlineExceeded' });
  });

  it('keeps the waiting reason (ErrImagePull) for the start error', () => {
    const state = podState(pod({ phase: 'Pending', containerStatuses: [{ name: 'sandbox', image: 'i', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ErrImagePull', message: 'denied' } } }] }));
    expect(state).toMatchObject({ waitingReason: 'ErrImagePull', waitingMessage: 'denied', running: false });
  });
});
