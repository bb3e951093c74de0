// The generated type guards of the open unions: they narrow where comparing `type` cannot
// (the unknown variant's `type` is any string). Type checks run under `tsc --noEmit`.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AssistantChunk, ContentBlock, SessionEvent, TextBlock } from '../src/index.js';
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
const unknown: SessionEvent = { type: 'plugin/note', seq: 4, time: 1, data: { turn: 'x' } };

describe('generated guards', () => {
  it('narrow a session event to its variant, where comparing type does not', () => {
    if (chunk.type === 'assistant/chunk') {
      // The unknown variant stays in the union: its data is still the open record.
      expectTypeOf(chunk.data).not.toEqualTypeOf<AssistantChunk>();
    }
    if (isAssistantChunkEvent(chunk)) expectTypeOf(chunk.data).toEqualTypeOf<AssistantChunk>();
    expect([isAssistantChunkEvent(chunk), isTurnEndEvent(chunk)]).toEqual([true, false]);
    expect(isAssistantChunkEvent(unknown)).toBe(false);
  });

  it('narrow a content block', () => {
    const block: ContentBlock = { type: 'text', text: 'hi' };
    const audio: ContentBlock = { type: 'audio' };
    if (isTextBlock(block)) expectTypeOf(block).toEqualTypeOf<TextBlock>();
    expect([isTextBlock(block), isTextBlock(audio)]).toEqual([true, false]);
  });

  it('agree with the schema on the events they accept', () => {
    const valid = validateSessionEventNotification({ sessionId: 's', event: chunk });
    expect(valid).toBe(true);
  });
});
