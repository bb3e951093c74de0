// Every server → client notification as one `{ method, params }` stream, in wire order.
import { formatMessage, WireMessage } from '@dsh-sdk/protocol';
import type {
  HarnessSdkClientPeer,
  HarnessSdkNotification,
  PeerTransport,
} from '@dsh-sdk/protocol';

/** One notification of the runtime: its wire method and its checked params. */
export type HarnessNotification = HarnessSdkNotification;

/** Receives notifications, in the order they came on the wire. */
export type NotificationListener = (notification: HarnessNotification) => void;

/**
 * Merges the peer's typed subscriptions (`onAnyNotification`) into one stream. The transport delivers each
 * line synchronously as it is read, so listeners see the notifications in wire order.
 * A listener that throws is reported as `notification-handler-failed` and does not stop the
 * others. A notification that arrives while no listener is subscribed is reported as
 * `unhandled-notification`: nothing is dropped in silence (subscribe before the handshake, with
 * `HarnessClient.spawn({ onNotification })`, to see everything from the start).
 */
export class NotificationHub {
  readonly #listeners = new Set<NotificationListener>();
  readonly #transport: Pick<PeerTransport, 'reportDiagnostic'>;

  constructor(peer: HarnessSdkClientPeer, transport: Pick<PeerTransport, 'reportDiagnostic'>) {
    this.#transport = transport;
    peer.onAnyNotification((notification) => this.#dispatch(notification));
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #dispatch(notification: HarnessNotification): void {
    if (this.#listeners.size === 0) {
      this.#transport.reportDiagnostic({
        reason: 'unhandled-notification',
        message: formatMessage(WireMessage.NoListener, { method: notification.method }),
        bytes: 0,
        method: notification.method,
      });
      return;
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(notification);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.#transport.reportDiagnostic({
          reason: 'notification-handler-failed',
          message: formatMessage(WireMessage.NotificationListenerFailed, {
            method: notification.method,
            error: reason,
          }),
          bytes: 0,
          method: notification.method,
          cause: error,
        });
      }
    }
  }
}
