// The panel's `api` module for the History tests (`vi.mock` returns `apiModule`): its calls and events go
// to whichever fake a test points it at with `holdApi`.
import { ApiCallError, describeError, NOT_AUTHORISED_HELP } from '../../../../renderer/api/errors.js';
import type { SandbarApi } from '../../../../shared/contract.js';

let current: SandbarApi | null = null;

const need = (): SandbarApi => {
  if (!current) throw new Error('no fake api: call connectFake() first');
  return current;
};

export const apiModule = {
  api: {
    call: ((...args: Parameters<SandbarApi['call']>) => need().call(...args)) as SandbarApi['call'],
    on: ((...args: Parameters<SandbarApi['on']>) => need().on(...args)) as SandbarApi['on'],
  },
  ApiCallError,
  describeError,
  NOT_AUTHORISED_HELP,
};

export function holdApi(api: SandbarApi | null): void {
  current = api;
}
