// Narrowing the open `SessionEvent` union: a known `type` selects its generated variant.
import type { ContentBlock, SessionEvent, UnknownSessionEvent } from '@dsh-sdk/protocol';

type KnownSessionEvent = Exclude<SessionEvent, UnknownSessionEvent>;
/** The `type` of every session event this protocol version knows. */
export type KnownEventType = KnownSessionEvent['type'];
/** The generated variant of a known event type. */
export type SessionEventOf<T extends KnownEventType> = Extract<KnownSessionEvent, { type: T }>;

/**
 * Whether `event` has the known type `type`. Notifications are checked against the schema
 * before they reach the client, so a known type guarantees its variant's shape.
 */
export function isEventOfType<T extends KnownEventType>(
  event: SessionEvent,
  type: T,
): event is SessionEventOf<T> {
  return event.type === type;
}

/** The text of a message: its `text` blocks joined, everything else skipped. */
export function textOf(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.type === 'text' && 'text' in block ? String(block.text) : ''))
    .join('');
}
