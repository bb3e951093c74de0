// What sessions send, and the gate that silences them once the runtime stops.
import { HarnessSdkNotifier } from '@dsh-sdk/protocol';
import type { PeerTransport } from '@dsh-sdk/protocol';

/** The notifications a runtime sends: the generated typed notify methods. */
export type Notifier = HarnessSdkNotifier;

/** A notification was refused because the runtime stopped (after `shutdown`). */
export class RuntimeStoppedError extends Error {
  override readonly name = 'RuntimeStoppedError';

  constructor() {
    super('the runtime is shutting down');
  }
}

/**
 * Forwards notifications to a transport until closed; afterwards every notification is refused
 * with {@link RuntimeStoppedError}, which ends the turn that tried to send it. Created before the
 * transport is bound (the server needs the sessions, the sessions need the notifier).
 */
export class NotifierGate extends HarnessSdkNotifier {
  readonly #state: { transport: Pick<PeerTransport, 'notify'> | undefined; isClosed: boolean };

  constructor() {
    const state = {
      transport: undefined as Pick<PeerTransport, 'notify'> | undefined,
      isClosed: false,
    };
    super((method, params) => {
      if (state.isClosed || !state.transport) throw new RuntimeStoppedError();
      return state.transport.notify(method, params);
    });
    this.#state = state;
  }

  /** Starts forwarding to `transport`. */
  bind(transport: Pick<PeerTransport, 'notify'>): void {
    this.#state.transport = transport;
  }

  /** Refuses every later notification. */
  close(): void {
    this.#state.isClosed = true;
  }
}
