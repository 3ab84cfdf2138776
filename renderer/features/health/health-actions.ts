// What the Health view asks of the main process.
import type { TokenKind } from '../../../shared/contract.js';
import type { RuntimeTier } from '../../../shared/health.js';
import { api, describeError } from '../../api/index.js';
import { useHealthStore } from '../../stores/health-store.js';
import { toast } from '../../stores/ui-store.js';

export async function runProbe(): Promise<void> {
  const store = useHealthStore.getState();
  if (store.probing) return;
  store.probeStarted();
  try {
    const report = await api.call('health.probe', {});
    useHealthStore.getState().probeFinished(report);
    toast(report.ok ? 'ok' : 'warn', report.ok ? 'Probe passed: every limit is enforced.' : 'Probe finished: some checks need attention.');
  } catch (err) {
    useHealthStore.getState().probeFinished(null, describeError(err));
    toast('fail', `The probe could not run: ${describeError(err)}`);
  }
}

/** Probes every installed runtime and tier (slow: a probe container each); null when it could not. */
export async function probeTiers(): Promise<RuntimeTier[] | null> {
  try {
    return await api.call('health.tiers', {});
  } catch (err) {
    toast('fail', `Could not probe the runtimes: ${describeError(err)}`);
    return null;
  }
}

export async function pullImage(image?: string): Promise<void> {
  try {
    const result = await api.call('image.pull', image ? { image } : {});
    useHealthStore.getState().imagePullProgress({ image: result.image, phase: 'pulling', line: result.started ? 'Starting…' : 'Already pulling…', fraction: null, error: null });
  } catch (err) {
    toast('fail', `Could not pull the image: ${describeError(err)}`);
  }
}

export async function fetchToken(kind: TokenKind): Promise<string | null> {
  try {
    return (await api.call('endpoint.token', { kind })).token;
  } catch (err) {
    toast('fail', `Could not read the token: ${describeError(err)}`);
    return null;
  }
}

export async function rotateToken(kind: TokenKind): Promise<string | null> {
  try {
    const { token } = await api.call('endpoint.rotateToken', { kind });
    toast('ok', kind === 'client' ? 'New client token in force. Clients set up with the old one need updating (Clients view).' : 'New panel token in force. Other open panels need the new link.');
    return token;
  } catch (err) {
    toast('fail', `Could not rotate the token: ${describeError(err)}`);
    return null;
  }
}
