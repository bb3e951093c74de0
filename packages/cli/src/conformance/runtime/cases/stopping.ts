// Stopping turns (WIRE.md §9): `session/interrupt` and `session/close` on unknown and idle
// sessions, and interrupting a running turn (how, in stop-attempts.ts).
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { orderProblems } from '../sequence-order.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import { LONG_PROMPT, SHORT_PROMPT, concerns, eventOf, isStatus, runPrompt } from '../turns.js';
import type { RuntimeWire } from '../wire.js';
import { abortProblem, promptAndStop, reasonOf, turnEnds, withAttempts } from './stop-attempts.js';
import type { Stopped } from './stop-attempts.js';

/** Judges one interrupt of a lone streaming turn; 'raced' when the turn had ended first. */
async function judgeInterrupt(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  session: string,
  stopped: Stopped,
): Promise<'judged' | 'raced'> {
  const { from, answer, answerLine } = stopped;
  const result = answer['result'] as JsonObject | undefined;
  if (result?.['wasRunning'] !== true) {
    const endedBefore = turnEnds(wire, session, from).some((l) => l.index < answerLine.index);
    const started = wire.lines.some(
      (l) =>
        l.index >= from &&
        l.index < answerLine.index &&
        eventOf(l, session, 'turn/start') !== undefined,
    );
    if (result?.['found'] === true && (endedBefore || !started)) return 'raced';
    ctx.fail(
      'DSH-INTERRUPT-003',
      `interrupting a running turn was answered ${describeAnswer(answer)}, not {found: true, wasRunning: true}`,
    );
    return 'judged';
  }
  const limit = 2000 * ctx.env.timeScale;
  const ended = (l: ServerLine) => l.index >= from && eventOf(l, session, 'turn/end') !== undefined;
  const turnEnd = await wire.waitFor(
    ended,
    `the interrupted turn's turn/end within ${limit} ms`,
    limit + 1000,
  );
  const late = turnEnd.at - answerLine.at;
  ctx.check(
    'DSH-INTERRUPT-004',
    late <= limit,
    `the interrupted turn's turn/end came ${Math.round(late)} ms after the answer (at most ${limit})`,
  );
  const problem = abortProblem(turnEnd, session, 'user');
  ctx.check('DSH-INTERRUPT-004', problem === undefined, problem ?? '');
  const idle = await wire.waitFor(
    (l) => l.index > turnEnd.index && isStatus(l, session, 'idle'),
    'idle after the interrupted turn',
  );
  const chunks = wire.lines.filter(
    (l) => l.index > answerLine.index && eventOf(l, session, 'assistant/chunk'),
  );
  ctx.check(
    'DSH-INTERRUPT-003',
    chunks.length === 0,
    `${chunks.length} assistant/chunk(s) of the interrupted turn followed the answer`,
  );
  ctx.pass('DSH-INTERRUPT-005');
  const turn = wire.lines.filter(
    (l) => l.index >= from && l.index <= idle.index && concerns(l, session),
  );
  for (const p of orderProblems('interruptTurn', turn)) ctx.fail('DSH-EVENT-004', p);
  ctx.pass('DSH-EVENT-004');
  return 'judged';
}

/** Judges one interrupt of a turn with a prompt queued behind it; 'raced' when it hit the wrong turn. */
async function judgeQueued(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  session: string,
  stopped: Stopped,
): Promise<'judged' | 'raced'> {
  const { from, answer, answerLine } = stopped;
  if ((answer['result'] as JsonObject | undefined)?.['wasRunning'] !== true) return 'raced';
  const first = await wire.waitFor(
    (l) => l.index >= from && eventOf(l, session, 'turn/end') !== undefined,
    'the interrupted turn/end',
  );
  if (first.index < answerLine.index && reasonOf(first, session)['kind'] !== 'aborted')
    return 'raced';
  const next = await wire.waitFor(
    (l) =>
      l.index > first.index &&
      (eventOf(l, session, 'turn/start') !== undefined ||
        eventOf(l, session, 'agent/inbox/spliced') !== undefined),
    'the queued prompt starting after the interrupt',
  );
  const idleBetween = wire.lines.some(
    (l) => l.index > first.index && l.index < next.index && isStatus(l, session, 'idle'),
  );
  ctx.check(
    'DSH-INTERRUPT-005',
    !idleBetween,
    'idle came between the interrupted turn and the queued one',
  );
  const nextEnd = await wire.waitFor(
    (l) => l.index > next.index && eventOf(l, session, 'turn/end') !== undefined,
    "the queued prompt's turn/end",
  );
  await wire.waitFor(
    (l) => l.index > nextEnd.index && isStatus(l, session, 'idle'),
    'idle after the queued prompt',
  );
  return 'judged';
}

export const STOPPING_CASES: readonly RuntimeCase[] = [
  {
    id: 'stop.idle-and-unknown',
    title:
      'interrupt and close an unknown session, interrupt an idle one (nothing written), close it twice',
    requirements: ['DSH-INTERRUPT-001', 'DSH-INTERRUPT-002', 'DSH-CLOSE-001'],
    versions: 'v2',
    async run(ctx) {
      const wire = await ctx.startInitialized();
      if (ctx.applies('DSH-INTERRUPT-001')) {
        const unknown = await wire.request('session/interrupt', {
          sessionId: 'conformance-nobody',
        });
        ctx.check(
          'DSH-INTERRUPT-001',
          JSON.stringify(unknown['result']) === '{"found":false,"wasRunning":false}',
          `an unknown session: ${describeAnswer(unknown)}`,
        );
      }
      if (ctx.applies('DSH-CLOSE-001')) {
        const unknown = await wire.request('session/close', { sessionId: 'conformance-nobody' });
        ctx.check(
          'DSH-CLOSE-001',
          JSON.stringify(unknown['result']) === '{"found":false}',
          `closing an unknown session: ${describeAnswer(unknown)}`,
        );
      }
      await runPrompt(wire, 'conformance-idle', SHORT_PROMPT);
      if (ctx.applies('DSH-INTERRUPT-002')) {
        const idle = await wire.request('session/interrupt', { sessionId: 'conformance-idle' });
        ctx.check(
          'DSH-INTERRUPT-002',
          JSON.stringify(idle['result']) === '{"found":true,"wasRunning":false}',
          `an idle session: ${describeAnswer(idle)}`,
        );
        const answerLine = wire.lines.find((l) => l.message === idle)!;
        await wire.request('conformance/ping', {});
        const written = wire.lines.filter(
          (l) => l.index > answerLine.index && concerns(l, 'conformance-idle'),
        );
        ctx.check(
          'DSH-INTERRUPT-002',
          written.length === 0,
          `interrupting an idle session wrote ${written.length} notification(s) for it`,
        );
      }
      if (ctx.applies('DSH-CLOSE-001')) {
        const first = await wire.request('session/close', { sessionId: 'conformance-idle' });
        const second = await wire.request('session/close', { sessionId: 'conformance-idle' });
        ctx.check(
          'DSH-CLOSE-001',
          JSON.stringify(first['result']) === '{"found":true}',
          `closing an idle session: ${describeAnswer(first)}`,
        );
        ctx.check(
          'DSH-CLOSE-001',
          JSON.stringify(second['result']) === '{"found":false}',
          `closing it again: ${describeAnswer(second)}`,
        );
      }
      wire.closeStdin();
    },
  },
  {
    id: 'stop.interrupt-running',
    title:
      'interrupt a streaming turn: the answer, no chunk after it, turn/end aborted within 2 s, idle; then with a prompt queued behind it',
    requirements: ['DSH-INTERRUPT-003', 'DSH-INTERRUPT-004', 'DSH-INTERRUPT-005', 'DSH-EVENT-004'],
    versions: 'v2',
    async run(ctx) {
      const wire = await ctx.startInitialized();
      await withAttempts(
        ctx,
        ['DSH-INTERRUPT-003', 'DSH-INTERRUPT-004', 'DSH-EVENT-004'],
        'conformance-interrupt',
        async (mode, session) => {
          const stopped = await promptAndStop(
            wire,
            mode,
            session,
            [LONG_PROMPT],
            'session/interrupt',
          );
          return stopped === 'too-fast' ? 'raced' : judgeInterrupt(ctx, wire, session, stopped);
        },
      );
      await withAttempts(
        ctx,
        ['DSH-INTERRUPT-005'],
        'conformance-queued',
        async (mode, session) => {
          const stopped = await promptAndStop(
            wire,
            mode,
            session,
            [LONG_PROMPT, SHORT_PROMPT],
            'session/interrupt',
          );
          return stopped === 'too-fast' ? 'raced' : judgeQueued(ctx, wire, session, stopped);
        },
      );
      wire.closeStdin();
    },
  },
];
