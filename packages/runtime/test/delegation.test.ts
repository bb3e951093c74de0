import { Method } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ECHO_ROUTE,
  RuntimeConnection,
  dataOf,
  describeFrames,
  killChildren,
} from './helpers/runtime-connection.js';

afterEach(killChildren);

/** A frame as `session method detail`, across sessions, for reading whole sequences. */
function outline(connection: RuntimeConnection): string[] {
  return connection.notifications.map((n) => {
    switch (n.method) {
      case Method.sessionEvent:
        return `${n.params.sessionId} ${n.params.event.type}`;
      case Method.sessionStatus:
        return `${n.params.sessionId} ${n.params.status}`;
      default:
        return `${n.params.parentSessionId} ${n.method} ${n.params.childSessionId}`;
    }
  });
}

describe('/delegate', () => {
  test('runs the child turn between the tool call and its result, before the parent ends', async () => {
    const runtime = await RuntimeConnection.initialized();
    const { messageId } = await runtime.peer.sessionPrompt({
      sessionId: 'p',
      contentBlocks: [{ type: 'text', text: '/delegate count to three' }],
    });
    expect(messageId).toBe('p/m1');
    await runtime.idle('p');
    expect(outline(runtime)).toEqual([
      'p running',
      'p agent/inbox/spliced',
      'p turn/start',
      'p user/message',
      'p step/start',
      'p tool/call',
      'p subagent.started p/child1',
      'p/child1 running',
      'p/child1 agent/inbox/spliced',
      'p/child1 turn/start',
      'p/child1 user/message',
      'p/child1 step/start',
      'p/child1 assistant/chunk',
      'p/child1 assistant/chunk',
      'p/child1 assistant/message',
      'p/child1 step/end',
      'p/child1 turn/end',
      'p/child1 idle',
      'p subagent.finished p/child1',
      'p tool/result',
      'p assistant/chunk',
      'p assistant/chunk',
      'p assistant/chunk',
      'p assistant/message',
      'p step/end',
      'p turn/end',
      'p idle',
    ]);
    const childReply = 'Echo: count to three';
    const parent = runtime.eventsOf('p');
    const child = runtime.eventsOf('p/child1');
    expect(child.map((event) => event.seq)).toEqual(child.map((_, index) => index));
    expect(parent.map((event) => event.seq)).toEqual(parent.map((_, index) => index));
    expect(dataOf(parent.find((event) => event.type === 'tool/call'))).toEqual({
      turn: 0,
      step: 0,
      id: 'p/call1',
      name: 'delegate',
      arguments: JSON.stringify({ task: 'count to three' }),
    });
    expect(dataOf(child.find((event) => event.type === 'user/message'))).toEqual({
      id: 'p/child1/m1',
      role: 'user',
      content: [{ type: 'text', text: 'count to three' }],
      source: { kind: 'parent' },
    });
    const finished = runtime.notifications.find((n) => n.method === Method.subagentFinished);
    expect(finished?.params).toEqual({
      provider: 'echo',
      agentId: 'p/child1',
      parentSessionId: 'p',
      childSessionId: 'p/child1',
      status: 'ok',
      stopReason: 'completed',
      lastAssistantMessage: [{ type: 'text', text: childReply }],
    });
    expect(dataOf(parent.find((event) => event.type === 'tool/result'))).toEqual({
      toolCallId: 'p/call1',
      content: [{ type: 'text', text: childReply }],
      isError: false,
    });
    expect(dataOf(parent.find((event) => event.type === 'assistant/message'))).toMatchObject({
      message: {
        id: 'p/m1/reply',
        content: [{ type: 'text', text: `Delegated to p/child1: ${childReply}` }],
      },
    });
  });

  test('numbers children per parent session and caps them with maxTokens', async () => {
    const runtime = await RuntimeConnection.initialized({ ...ECHO_ROUTE, maxTokens: 1 });
    for (const task of ['first task is long enough', 'second']) {
      await runtime.peer.sessionPrompt({
        sessionId: 'q',
        contentBlocks: [{ type: 'text', text: `/delegate ${task}` }],
      });
    }
    await runtime.idle('q', 2);
    const started = runtime.notifications.filter((n) => n.method === Method.subagentStarted);
    expect(started.map((n) => n.params)).toEqual([
      { parentSessionId: 'q', childSessionId: 'q/child1' },
      { parentSessionId: 'q', childSessionId: 'q/child2' },
    ]);
    const finished = runtime.notifications.find((n) => n.method === Method.subagentFinished);
    expect(finished?.params).toMatchObject({
      stopReason: 'max-tokens',
      lastAssistantMessage: [{ type: 'text', text: 'Echo: first task' }],
    });
    expect(describeFrames(runtime.notifications, 'q/child1').at(-2)).toBe('session.event turn/end');
  });
});

describe('subagent.finished status', () => {
  /** Delegates a task whose echo needs 3 pieces to a child capped at 1: it stops with max-tokens. */
  async function finishedOfCappedChild(args: readonly string[]): Promise<unknown> {
    const runtime = await RuntimeConnection.initialized({ ...ECHO_ROUTE, maxTokens: 1 }, {}, args);
    await runtime.peer.sessionPrompt({
      sessionId: 'p',
      contentBlocks: [{ type: 'text', text: '/delegate a task long enough for three pieces' }],
    });
    await runtime.idle('p');
    return runtime.notifications.find((n) => n.method === Method.subagentFinished)?.params;
  }

  test('is ok for a child that completed', async () => {
    const runtime = await RuntimeConnection.initialized();
    await runtime.peer.sessionPrompt({
      sessionId: 'p',
      contentBlocks: [{ type: 'text', text: '/delegate hi' }],
    });
    await runtime.idle('p');
    const finished = runtime.notifications.find((n) => n.method === Method.subagentFinished);
    expect(finished?.params).toMatchObject({ stopReason: 'completed', status: 'ok' });
  });

  test('is error for a child that stopped with max-tokens, as in the original', async () => {
    await expect(finishedOfCappedChild([])).resolves.toMatchObject({
      stopReason: 'max-tokens',
      status: 'error',
    });
  });

  test('is ok for max-tokens when the runtime runs with --max-tokens-is-success', async () => {
    await expect(finishedOfCappedChild(['--max-tokens-is-success'])).resolves.toMatchObject({
      stopReason: 'max-tokens',
      status: 'ok',
    });
  });
});
