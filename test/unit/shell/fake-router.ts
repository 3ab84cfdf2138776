// A ControlHandler for tests: answers calls from a table, records them, and pushes events to connections.
import type { Envelope, EventMessage, EventName, Events } from '../../../shared/contract.js';
import type { ControlConnection, ControlHandler } from '../../../electron/control/control-handler.js';

type Answer = Envelope<unknown> | ((args: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>);

export class FakeRouter implements ControlHandler {
  readonly calls: { method: string; args: unknown; connectionId: string | undefined; transport?: string }[] = [];
  readonly connections = new Map<string, { send: (message: EventMessage) => void; closed: boolean; seq: number }>();
  private next = 0;

  constructor(private readonly answers: Record<string, Answer> = {}) {}

  answer(method: string, answer: Answer): void {
    this.answers[method] = answer;
  }

  async call(method: string, args: unknown, caller?: { connectionId?: string | undefined; transport: string }): Promise<Envelope<unknown>> {
    this.calls.push({ method, args, connectionId: caller?.connectionId, ...(caller ? { transport: caller.transport } : {}) });
    const answer = this.answers[method];
    if (!answer) return { ok: false, error: { code: 'invalid_request', message: `no fake answer for ${method}` } };
    return typeof answer === 'function' ? answer(args) : answer;
  }

  connect(send: (message: EventMessage) => void): ControlConnection {
    const id = `c${++this.next}`;
    const entry = { send, closed: false, seq: 0 };
    this.connections.set(id, entry);
    return {
      id,
      close: () => {
        entry.closed = true;
      },
    };
  }

  /** Sends an event to every open connection. */
  emit<E extends EventName>(event: E, data: Events[E]): void {
    for (const entry of this.connections.values()) {
      if (!entry.closed) entry.send({ event, seq: ++entry.seq, data } as EventMessage);
    }
  }

  openConnections(): string[] {
    return [...this.connections].filter(([, c]) => !c.closed).map(([id]) => id);
  }
}
