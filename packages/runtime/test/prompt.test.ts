import { Method } from '@dsh-sdk/protocol';
import type { SdkPromptContentBlock, SessionEvent } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ECHO_ROUTE,
  RuntimeConnection,
  dataOf,
  describeFrames,
  killChildren,
  turnFrames,
} from './helpers/runtime-connection.js';

afterEach(killChildren);

/** `time` is the wall clock: the only part of a frame that differs between runs. */
function withoutTime(event: SessionEvent): Omit<SessionEvent, 'time'> {
  const { time, ...rest } = event;
  expect(Number.isInteger(time)).toBe(true);
  return rest;
}

describe('a prompt', () => {
  test('streams the frames of the spec, in order, after the response', async () => {
    const runtime = await RuntimeConnection.initialized();
    const text = 'Hello, reference runtime! 👋 How are you?';
    const before = Date.now();
    const { messageId } = await runtime.peer.sessionPrompt({
      sessionId: 's1',
      contentBlocks: [{ type: 'text', text }],
    });
    // The response came first: nothing of the turn had arrived when it resolved.
    expect(messageId).toBe('s1/m1');
    await runtime.idle('s1');
    expect(describeFrames(runtime.notifications, 's1')).toEqual(turnFrames(3));
    const events = runtime.eventsOf('s1');
    for (const event of events) {
      expect(event.time).toBeGreaterThanOrEqual(before);
      expect(event.time).toBeLessThanOrEqual(Date.now());
    }
    const user = {
      id: 's1/m1',
      role: 'user',
      content: [{ type: 'text', text }],
      source: { kind: 'user' },
    };
    const reply = `Echo: ${text}`;
    const pieces = [...reply];
    expect(events.map(withoutTime)).toEqual([
      {
        type: 'agent/inbox/spliced',
        seq: 0,
        data: { target: 'next-turn', start: 0, inserted: [user] },
      },
      { type: 'turn/start', seq: 1, data: { turn: 0 } },
      { type: 'user/message', seq: 2, data: user },
      { type: 'step/start', seq: 3, data: { turn: 0, step: 0 } },
      ...[0, 16, 32].map((start, index) => ({
        type: 'assistant/chunk',
        seq: 4 + index,
        data: {
          turn: 0,
          step: 0,
          delta: { type: 'text', text: pieces.slice(start, start + 16).join('') },
        },
      })),
      {
        type: 'assistant/message',
        seq: 7,
        data: {
          message: {
            id: 's1/m1/reply',
            role: 'assistant',
            content: [{ type: 'text', text: reply }],
          },
          usage: { inputTokens: [...text].length, outputTokens: 3 },
        },
      },
      { type: 'step/end', seq: 8, data: { turn: 0, step: 0 } },
      { type: 'turn/end', seq: 9, data: { turn: 0, reason: { kind: 'completed' } } },
    ]);
  });

  test('cuts the reply every 16 code points, not UTF-16 units', async () => {
    const runtime = await RuntimeConnection.initialized();
    const text = '😀'.repeat(20);
    await runtime.peer.sessionPrompt({ sessionId: 'e', contentBlocks: [{ type: 'text', text }] });
    await runtime.idle('e');
    const deltas = runtime
      .eventsOf('e')
      .flatMap((event) =>
        event.type === 'assistant/chunk' ? [(dataOf(event)['delta'] as { text: string }).text] : [],
      );
    expect(deltas.map((delta) => [...delta].length)).toEqual([16, 10]);
    expect(deltas.join('')).toBe(`Echo: ${text}`);
  });

  test('joins text blocks with newlines and skips other blocks in the reply', async () => {
    const runtime = await RuntimeConnection.initialized();
    await runtime.peer.sessionPrompt({
      sessionId: 'j',
      contentBlocks: [
        { type: 'text', text: 'one' },
        { type: 'reasoning', text: 'hidden' },
        // A block type this version does not know: only a conversion makes one.
        { type: 'future-block', payload: { kept: true } } as unknown as SdkPromptContentBlock,
        { type: 'text', text: 'two' },
      ],
    });
    await runtime.idle('j');
    const events = runtime.eventsOf('j');
    const message = events.find((event) => event.type === 'assistant/message');
    expect(message?.data).toEqual({
      message: {
        id: 'j/m1/reply',
        role: 'assistant',
        content: [{ type: 'text', text: 'Echo: one\ntwo' }],
      },
      usage: { inputTokens: 'one\ntwo'.length, outputTokens: 1 },
    });
    // Unknown blocks reach the durable message whole.
    const user = events.find((event) => event.type === 'user/message');
    expect(dataOf(user)['content']).toContainEqual({
      type: 'future-block',
      payload: { kept: true },
    });
  });

  test('counts turns, seq and message ids on across the prompts of a session', async () => {
    const runtime = await RuntimeConnection.initialized();
    const first = await runtime.peer.sessionPrompt({
      sessionId: 's',
      contentBlocks: [{ type: 'text', text: 'first' }],
    });
    await runtime.idle('s');
    const second = await runtime.peer.sessionPrompt({
      sessionId: 's',
      contentBlocks: [{ type: 'text', text: 'second' }],
    });
    await runtime.idle('s', 2);
    expect([first.messageId, second.messageId]).toEqual(['s/m1', 's/m2']);
    const events = runtime.eventsOf('s');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    const turns = events.filter((event) => event.type === 'turn/start').map((event) => event.data);
    expect(turns).toEqual([{ turn: 0 }, { turn: 1 }]);
    const receipt = events.filter((event) => event.type === 'agent/inbox/spliced')[1];
    expect(dataOf(receipt)['inserted']).toEqual([expect.objectContaining({ id: 's/m2' })]);
  });

  test('stops at maxTokens pieces and ends the turn with max-tokens', async () => {
    const runtime = await RuntimeConnection.initialized({ ...ECHO_ROUTE, maxTokens: 2 });
    const text = 'a long prompt that makes a reply of more than two pieces';
    await runtime.peer.sessionPrompt({ sessionId: 'm', contentBlocks: [{ type: 'text', text }] });
    await runtime.idle('m');
    const events = runtime.eventsOf('m');
    const chunks = events.filter((event) => event.type === 'assistant/chunk');
    expect(chunks).toHaveLength(2);
    const message = events.find((event) => event.type === 'assistant/message');
    expect(message?.data).toEqual({
      message: {
        id: 'm/m1/reply',
        role: 'assistant',
        content: [{ type: 'text', text: `Echo: ${text}`.slice(0, 32) }],
      },
      usage: { inputTokens: text.length, outputTokens: 2 },
    });
    const end = events.find((event) => event.type === 'turn/end');
    expect(end?.data).toEqual({ turn: 0, reason: { kind: 'max-tokens' } });
  });

  test('refuses params that break the schema with -32602 and enqueues nothing', async () => {
    const runtime = await RuntimeConnection.initialized();
    const error: unknown = await runtime.transport
      .request(Method.sessionPrompt, { sessionId: '', contentBlocks: [] })
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      code: -32602,
      data: [
        { pointer: '/sessionId', message: expect.any(String) },
        { pointer: '/contentBlocks', message: expect.any(String) },
      ],
    });
    await runtime.shutdown();
    expect(runtime.notifications).toEqual([]);
  });
});
