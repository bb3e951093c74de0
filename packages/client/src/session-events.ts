// Narrowing the open `SessionEvent` union: a known `type` selects its generated variant.
import { isAssistantChunkEvent, isTextBlock, Method } from '@dsh-sdk/protocol';
import type { ContentBlock, SessionEvent, UnknownSessionEvent } from '@dsh-sdk/protocol';
import type { HarnessNotification } from './notifications.js';

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

/**
 * The reply text a notification streams for `sessionId`: the text of an `assistant/chunk`
 * whose delta is a `text` block (reasoning and other deltas are not reply text), else undefined.
 */
export function textDeltaOf(
  notification: HarnessNotification,
  sessionId: string,
): string | undefined {
  if (notification.method !== Method.sessionEvent) return undefined;
  if (notification.params.sessionId !== sessionId) return undefined;
  const { event } = notification.params;
  if (!isAssistantChunkEvent(event) || !isTextBlock(event.data.delta)) return undefined;
  return event.data.delta.text;
}
