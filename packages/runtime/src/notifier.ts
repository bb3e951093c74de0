// What sessions send, and the gate that silences them once the runtime stops.
import type { HarnessSdkServerPeer } from '@dsh-sdk/protocol';

/** The notifications a runtime sends: the notify half of the generated server peer. */
export type Notifier = Pick<
  HarnessSdkServerPeer,
  'notifySessionEvent' | 'notifySessionStatus' | 'notifySubagentStarted' | 'notifySubagentFinished'
>;

/** A notification was refused because the runtime stopped (after `shutdown`). */
export class RuntimeStoppedError extends Error {
  override readonly name = 'RuntimeStoppedError';

  constructor() {
    super('the runtime is shutting down');
  }
}

/**
 * Forwards notifications to a server peer until closed; afterwards every notification is
 * refused with {@link RuntimeStoppedError}, which ends the turn that tried to send it.
 * Created before the peer exists (the peer needs the handlers, the handlers need the notifier).
 */
export class NotifierGate implements Notifier {
  #peer: Notifier | undefined;
  #isClosed = false;

  /** Starts forwarding to `peer`. */
  bind(peer: Notifier): void {
    this.#peer = peer;
  }

  /** Refuses every later notification. */
  close(): void {
    this.#isClosed = true;
  }

  notifySessionEvent(...args: Parameters<Notifier['notifySessionEvent']>): Promise<void> {
    return this.#open().notifySessionEvent(...args);
  }

  notifySessionStatus(...args: Parameters<Notifier['notifySessionStatus']>): Promise<void> {
    return this.#open().notifySessionStatus(...args);
  }

  notifySubagentStarted(...args: Parameters<Notifier['notifySubagentStarted']>): Promise<void> {
    return this.#open().notifySubagentStarted(...args);
  }

  notifySubagentFinished(...args: Parameters<Notifier['notifySubagentFinished']>): Promise<void> {
    return this.#open().notifySubagentFinished(...args);
  }

  #open(): Notifier {
    if (this.#isClosed || !this.#peer) throw new RuntimeStoppedError();
    return this.#peer;
  }
}
