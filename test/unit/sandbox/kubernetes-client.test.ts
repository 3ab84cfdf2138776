// @kubernetes/client-node is optional: without it, choosing the Kubernetes runtime fails with words that
// say what is missing and what to do, never a module-resolution stack; other load errors pass through.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { KUBERNETES_CLIENT_MISSING, loadClient } from '../../../electron/sandbox/kubernetes/kubernetes-client.js';

const missing = () => {
  throw Object.assign(new Error("Cannot find module '@kubernetes/client-node'\nRequire stack:\n- /app/dist/electron/sandbox/kubernetes/kubernetes-client.js"), { code: 'MODULE_NOT_FOUND' });
};

describe('loading the Kubernetes client', () => {
  it('turns an absent package into a clear error naming it and how to get it', () => {
    const err = (() => {
      try {
        loadClient(missing);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('runtime_not_found');
    expect((err as AppError).message).toBe(KUBERNETES_CLIENT_MISSING);
    expect((err as AppError).message).toMatch(/optional package @kubernetes\/client-node.*npm install @kubernetes\/client-node/);
    expect((err as AppError).message).not.toMatch(/Require stack/);
  });

  it('lets any other failure through unchanged (a broken install is not a missing one)', () => {
    const broken = () => {
      throw Object.assign(new Error("Cannot find module 'openid-client'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadClient(broken)).toThrow("Cannot find module 'openid-client'");
  });

  it('loads the installed client (it is installed here) without touching the seam', () => {
    expect(typeof loadClient().KubeConfig).toBe('function');
  });
});
