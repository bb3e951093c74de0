// The names of the generated maps, peers and handlers, and how directions read in docs: spelled
// from the targets file's `bindings` (a prefix and the two sides' names), the same in every language.
import type { Direction } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import type { ProtocolTargets } from '../protocols/targets.js';

export interface BindingNames {
  /** Client → server requests by wire name (`HarnessSdkRequestMap`). */
  readonly requestMap: string;
  /** Server → client notifications by wire name (`HarnessSdkNotificationMap`). */
  readonly notificationMap: string;
  /** Server → client requests by wire name (`<prefix><Server>RequestMap`). */
  readonly serverRequestMap: string;
  /** Client → server notifications by wire name (`<prefix><Client>NotificationMap`). */
  readonly clientNotificationMap: string;
  /** Any server → client notification, told apart by method (`HarnessSdkNotification`). */
  readonly anyNotification: string;
  readonly clientPeer: string;
  readonly serverPeer: string;
  /** Typed notify methods of the server end (`HarnessSdkNotifier`). */
  readonly notifier: string;
  /** What the server end implements (`HarnessSdkRequestHandlers`). */
  readonly requestHandlers: string;
  /** What the client end implements, when the server sends requests (`<prefix><Client>RequestHandlers`). */
  readonly clientRequestHandlers: string;
  /** Serves the protocol on a transport (`serveHarnessSdk`). */
  readonly serve: string;
}

export function bindingNames(target: ProtocolTargets): BindingNames {
  const { prefix, sides } = target.bindings;
  const client = pascalCase(sides.client);
  const server = pascalCase(sides.server);
  return {
    requestMap: `${prefix}RequestMap`,
    notificationMap: `${prefix}NotificationMap`,
    serverRequestMap: `${prefix}${server}RequestMap`,
    clientNotificationMap: `${prefix}${client}NotificationMap`,
    anyNotification: `${prefix}Notification`,
    clientPeer: `${prefix}${client}Peer`,
    serverPeer: `${prefix}${server}Peer`,
    notifier: `${prefix}Notifier`,
    requestHandlers: `${prefix}RequestHandlers`,
    clientRequestHandlers: `${prefix}${client}RequestHandlers`,
    serve: `serve${prefix}`,
  };
}

/** `client → server` (both ways: `client ↔ server`), in the protocol's own words. */
export function arrow(direction: Direction, target: ProtocolTargets): string {
  const { client, server } = target.bindings.sides;
  if (direction === 'clientToServer') return `${client} → ${server}`;
  if (direction === 'serverToClient') return `${server} → ${client}`;
  return `${client} ↔ ${server}`;
}
