// session/interrupt and session/close through the built runtime over real pipes: what the
// exchange vectors cannot pin to exact frames (pauses cut short, children, wire order).
import { spawnSync } from 'node:child_process';
import { Method } from '@dsh-sdk/protocol';
import type { SessionEvent, TurnEnd } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import {
  LAUNCHER,
  RuntimeConnection,
  describeFrames,
  killChildren,
} from './helpers/runtime-connection.js';
import type { Recorded } from './helpers/runtime-connection.js';
import { budgetMs } from './helpers/time-budget.js';

afterEach(killChildren);

const V2 = { cwd: '/tmp', provider: 'echo', model: 'echo-1', protocolVersion: 2 };
const text = (value: string) => [{ type: 'text' as const, text: value }];
const isEvent = (type: string, sessionId: string) => (n: Recorded) =>
  n.method === Method.sessionEvent &&
  n.params.sessionId === sessionId &&
  n.params.event.type === type;
/** The `reason` of every `turn/end`, whole: the nested reason of an `aborted` one is compared too. */
const reasons = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'turn/end' ? [(e.data as TurnEnd).reason] : []));
const ABORTED_BY_USER = { kind: 'aborted', reason: { kind: 'user' } };
const ABORTED_DISPOSED = { kind: 'aborted', reason: { kind: 'disposed' } };
const ABORTED_WITH_PARENT = { kind: 'aborted', reason: { kind: 'parent' } };

describe('session/interrupt', () => {
  test(
    'cuts a pause before a chunk short: the turn ends long before the next chunk was due',
    async () => {
      // A minute before every chunk: only an interrupt that ends the pause lets the turn end.
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '60000',
      });
      void runtime.peer.sessionPrompt({ sessionId: 's', contentBlocks: text('hello') });
      await runtime.waitFor(isEvent('step/start', 's'));
      await expect(runtime.peer.sessionInterrupt({ sessionId: 's' })).resolves.toEqual({
        found: true,
        wasRunning: true,
      });
      await runtime.idle('s');
      expect(describeFrames(runtime.notifications, 's')).toEqual([
        'session.status running',
        'session.event agent/inbox/spliced',
        'session.event turn/start',
        'session.event user/message',
        'session.event step/start',
        'session.event step/end',
        'session.event turn/end',
        'session.status idle',
      ]);
      expect(reasons(runtime.eventsOf('s'))).toEqual([ABORTED_BY_USER]);
    },
    budgetMs(20_000),
  );

  test(
    'a prompt then an interrupt at once: the receipt and the opening frames still come',
    async () => {
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '60000',
      });
      const [receipt, answer] = await Promise.all([
        runtime.peer.sessionPrompt({ sessionId: 'at-once', contentBlocks: text('hello') }),
        runtime.peer.sessionInterrupt({ sessionId: 'at-once' }),
      ]);
      // Handled in wire order: the prompt was admitted, so its turn is the one in progress.
      expect(answer).toEqual({ found: true, wasRunning: true });
      await runtime.idle('at-once');
      const events = runtime.eventsOf('at-once');
      expect(events[0]).toMatchObject({
        type: 'agent/inbox/spliced',
        data: { inserted: [{ id: receipt.messageId }] },
      });
      expect(events.map((e) => e.type)).not.toContain('assistant/chunk');
      expect(reasons(events)).toEqual([ABORTED_BY_USER]);
    },
    budgetMs(20_000),
  );

  test(
    'interrupting a parent stops its child with it: `parent` for the child, `user` for the parent',
    async () => {
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200',
      });
      void runtime.peer.sessionPrompt({
        sessionId: 'p',
        contentBlocks: text('/delegate count to ten, slowly please'),
      });
      await runtime.waitFor(isEvent('assistant/chunk', 'p/child1'));
      await expect(runtime.peer.sessionInterrupt({ sessionId: 'p' })).resolves.toEqual({
        found: true,
        wasRunning: true,
      });
      await runtime.idle('p');
      expect(reasons(runtime.eventsOf('p/child1'))).toEqual([ABORTED_WITH_PARENT]);
      expect(reasons(runtime.eventsOf('p'))).toEqual([ABORTED_BY_USER]);
    },
    budgetMs(20_000),
  );

  test(
    'interrupting a child session stops the child only; the parent goes on',
    async () => {
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200',
      });
      void runtime.peer.sessionPrompt({
        sessionId: 'p',
        contentBlocks: text('/delegate count to ten, slowly please'),
      });
      await runtime.waitFor(isEvent('assistant/chunk', 'p/child1'));
      await expect(runtime.peer.sessionInterrupt({ sessionId: 'p/child1' })).resolves.toEqual({
        found: true,
        wasRunning: true,
      });
      await runtime.idle('p');
      const finished = runtime.notifications.find((n) => n.method === Method.subagentFinished);
      expect(finished?.params).toMatchObject({ status: 'error', stopReason: 'aborted' });
      // Interrupted itself, not with its parent: `user`.
      expect(reasons(runtime.eventsOf('p/child1'))).toEqual([ABORTED_BY_USER]);
      expect(reasons(runtime.eventsOf('p'))).toEqual([{ kind: 'completed' }]);
      const result = runtime.eventsOf('p').find((e) => e.type === 'tool/result');
      expect(result?.data).toMatchObject({ isError: true });
    },
    budgetMs(20_000),
  );
});

describe('session/close', () => {
  test(
    'disposes the child sessions with their parent',
    async () => {
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200',
      });
      void runtime.peer.sessionPrompt({
        sessionId: 'p',
        contentBlocks: text('/delegate count to ten, slowly please'),
      });
      await runtime.waitFor(isEvent('assistant/chunk', 'p/child1'));
      await expect(runtime.peer.sessionClose({ sessionId: 'p' })).resolves.toEqual({ found: true });
      // Answered once disposed: the parent's closing frames came before the answer.
      expect(reasons(runtime.eventsOf('p'))).toEqual([ABORTED_DISPOSED]);
      expect(reasons(runtime.eventsOf('p/child1'))).toEqual([ABORTED_WITH_PARENT]);
      await expect(runtime.peer.sessionInterrupt({ sessionId: 'p/child1' })).resolves.toEqual({
        found: false,
        wasRunning: false,
      });
      await expect(runtime.peer.sessionClose({ sessionId: 'p/child1' })).resolves.toEqual({
        found: false,
      });
    },
    budgetMs(20_000),
  );

  test(
    'a close right after a prompt drops that prompt and its queue',
    async () => {
      const runtime = await RuntimeConnection.initialized(V2, {
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200',
      });
      const sent = [
        runtime.peer.sessionPrompt({ sessionId: 'gone', contentBlocks: text('one') }),
        runtime.peer.sessionPrompt({ sessionId: 'gone', contentBlocks: text('two') }),
        runtime.peer.sessionClose({ sessionId: 'gone' }),
      ] as const;
      const [first, second, closed] = await Promise.all(sent);
      expect([first.messageId, second.messageId, closed]).toEqual([
        'gone/m1',
        'gone/m2',
        { found: true },
      ]);
      const events = runtime.eventsOf('gone');
      expect(reasons(events)).toEqual([ABORTED_DISPOSED]);
      expect(JSON.stringify(events)).not.toContain('gone/m2');
      expect(describeFrames(runtime.notifications, 'gone').at(-1)).toBe('session.status idle');
    },
    budgetMs(20_000),
  );
});

describe('the command line', () => {
  test('--protocol-version takes 1 or 2 and refuses anything else', () => {
    const help = spawnSync(LAUNCHER, ['--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('--protocol-version N');
    for (const bad of ['0', '3', 'two', '1.5']) {
      const run = spawnSync(LAUNCHER, ['--protocol-version', bad], { encoding: 'utf8', input: '' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`--protocol-version ${bad}: expected an integer from 1 to 2`);
    }
    expect(spawnSync(LAUNCHER, ['--protocol-version', '1'], { input: '' }).status).toBe(0);
  });
});
