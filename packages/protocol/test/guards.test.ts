// The generated type guards of the open unions, and comparing `type`, which narrows as they do:
// the unknown variant's `type` is an `UnknownValue`, which no literal matches. Type checks run
// under `tsc --noEmit`.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AssistantChunk,
  ContentBlock,
  SessionEvent,
  TextBlock,
  UnknownContentBlock,
  UnknownSessionEvent,
} from '../src/index.js';
import {
  isAssistantChunkEvent,
  isTextBlock,
  isTurnEndEvent,
  validateSessionEventNotification,
} from '../src/index.js';

const chunk: SessionEvent = {
  type: 'assistant/chunk',
  seq: 3,
  time: 1,
  data: { turn: 0, step: 0, delta: { type: 'text', text: 'Hel' } },
};
// A type this version does not know comes from the wire, never from a literal.
const unknown = JSON.parse(
  '{"type":"plugin/note","seq":4,"time":1,"data":{"turn":"x"}}',
) as SessionEvent;

describe('generated guards', () => {
  it('narrow a session event to its variant, as comparing its type does', () => {
    if (chunk.type === 'assistant/chunk') expectTypeOf(chunk.data).toEqualTypeOf<AssistantChunk>();
    if (isAssistantChunkEvent(chunk)) expectTypeOf(chunk.data).toEqualTypeOf<AssistantChunk>();
    expect([isAssistantChunkEvent(chunk), isTurnEndEvent(chunk)]).toEqual([true, false]);
    expect(isAssistantChunkEvent(unknown)).toBe(false);
  });

  it('let a switch over the known types narrow, the unknown ones kept in its default', () => {
    const seen = [chunk, unknown].map((event) => {
      switch (event.type) {
        case 'assistant/chunk':
          expectTypeOf(event.data).toEqualTypeOf<AssistantChunk>();
          return event.data.delta.type;
        default:
          expectTypeOf<UnknownSessionEvent>().toExtend<typeof event>();
          return String(event.type); // an unknown type reads as the string it is
      }
    });
    expect(seen).toEqual(['text', 'plugin/note']);
  });

  it('refuse to compare with a type this version does not know; its string still reads', () => {
    // @ts-expect-error 'plugin/note' is not a known type: compare String(event.type) instead
    const compared = (event: SessionEvent) => event.type === 'plugin/note';
    expect([compared(unknown), String(unknown.type) === 'plugin/note']).toEqual([true, true]);
  });

  it('narrow a content block', () => {
    const block: ContentBlock = { type: 'text', text: 'hi' };
    const audio = JSON.parse('{"type":"audio"}') as UnknownContentBlock as ContentBlock;
    if (isTextBlock(block)) expectTypeOf(block).toEqualTypeOf<TextBlock>();
    expect([isTextBlock(block), isTextBlock(audio)]).toEqual([true, false]);
  });

  it('agree with the schema on the events they accept', () => {
    const valid = validateSessionEventNotification({ sessionId: 's', event: chunk });
    expect(valid).toBe(true);
  });
});
