// The Electron transport: the preload's closed surface, with its envelopes turned into values or throws.
import type { Envelope, EventName, Events, MethodArgs, MethodName, MethodResult, PreloadApi, SandbarApi } from '../../shared/contract.js';
import { ApiCallError } from './errors.js';

export function wrapPreload(preload: PreloadApi): SandbarApi {
  return {
    async call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
      const invoke = preload.methods[method] as (a: MethodArgs<M>) => Promise<Envelope<MethodResult<M>>>;
      if (typeof invoke !== 'function') throw new ApiCallError({ code: 'internal', message: `The desktop app does not offer ${method}.` });
      const envelope = await invoke(args);
      if (envelope.ok) return envelope.value;
      throw ApiCallError.from(envelope.error);
    },
    on<E extends EventName>(event: E, listener: (data: Events[E]) => void): () => void {
      const subscribe = preload.events[event] as (l: (data: Events[E]) => void) => () => void;
      return subscribe(listener);
    },
  };
}
