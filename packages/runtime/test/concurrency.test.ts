import { Method } from '@dsh-sdk/protocol';
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

/** Paced chunks make turns long enough to overlap. */
const PACED = { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '15' };

const TURN_FRAMES = turnFrames(3);

describe('concurrency', () => {
  test('runs two sessions at the same time, each in order', async () => {
    const runtime = await RuntimeConnection.initialized(ECHO_ROUTE, PACED);
    const text = 'a prompt of about forty characters long';
    const receipts = await Promise.all(
      ['a', 'b'].map((sessionId) =>
        runtime.peer.sessionPrompt({ sessionId, contentBlocks: [{ type: 'text', text }] }),
      ),
    );
    expect(receipts).toEqual([{ messageId: 'a/m1' }, { messageId: 'b/m1' }]);
    await Promise.all([runtime.idle('a'), runtime.idle('b')]);
    for (const sessionId of ['a', 'b']) {
      expect(describeFrames(runtime.notifications, sessionId)).toEqual(TURN_FRAMES);
      const events = runtime.eventsOf(sessionId);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    }
    // They overlapped: b's turn started before a's ended.
    const sessions = runtime.notifications.map((n) =>
      n.method === Method.sessionEvent || n.method === Method.sessionStatus
        ? n.params.sessionId
        : '',
    );
    expect(sessions.indexOf('b')).toBeLessThan(sessions.lastIndexOf('a'));
  });

  test('queues the prompts of a busy session and runs them one at a time, in order', async () => {
    const runtime = await RuntimeConnection.initialized(ECHO_ROUTE, PACED);
    const texts = ['one', 'two', 'three'];
    const receipts = await Promise.all(
      texts.map((text) =>
        runtime.peer.sessionPrompt({ sessionId: 'q', contentBlocks: [{ type: 'text', text }] }),
      ),
    );
    await runtime.idle('q', 3);
    const frames = describeFrames(runtime.notifications, 'q');
    const oneTurn = TURN_FRAMES.filter((frame) => !frame.endsWith('assistant/chunk'));
    expect(frames.filter((frame) => !frame.endsWith('assistant/chunk'))).toEqual([
      ...oneTurn,
      ...oneTurn,
      ...oneTurn,
    ]);
    const events = runtime.eventsOf('q');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    const spliced = events.filter((event) => event.type === 'agent/inbox/spliced');
    expect(spliced.map((event) => dataOf(event)['inserted'])).toEqual(
      receipts.map(({ messageId }, index) => [
        {
          id: messageId,
          role: 'user',
          content: [{ type: 'text', text: texts[index] }],
          source: { kind: 'user' },
        },
      ]),
    );
    const starts = events.filter((event) => event.type === 'turn/start');
    expect(starts.map((event) => event.data)).toEqual([{ turn: 0 }, { turn: 1 }, { turn: 2 }]);
    const replies = events
      .filter((event) => event.type === 'assistant/message')
      .map((event) => (dataOf(event)['message'] as { content: unknown }).content);
    expect(replies).toEqual(texts.map((text) => [{ type: 'text', text: `Echo: ${text}` }]));
  });
});
