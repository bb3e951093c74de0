// Stopping turns (WIRE.md §9): `session/interrupt` and `session/close` on unknown, idle and
// running sessions. A running turn is stopped after its first chunk, with the kit not reading
// for a moment, so a runtime that writes with back-pressure is mid-turn when the request arrives.
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { orderProblems } from '../sequence-order.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import {
  LONG_PROMPT,
  SHORT_PROMPT,
  concerns,
  eventOf,
  isStatus,
  runPrompt,
  sleep,
  textPrompt,
} from '../turns.js';
import type { Answer, RuntimeWire } from '../wire.js';

export interface Stopped {
  readonly answer: Answer;
  readonly answerLine: ServerLine;
}

/**
 * Sends `method` for `target` once `sessionId`'s turn streams (a child's, to stop its parent);
 * 'too-fast' when the turn ended first.
 */
export async function stopWhileStreaming(
  wire: RuntimeWire,
  sessionId: string,
  method: 'session/interrupt' | 'session/close',
  from: number,
  target = sessionId,
): Promise<Stopped | 'too-fast'> {
  const first = await wire.waitFor(
    (l) =>
      l.index >= from &&
      (eventOf(l, sessionId, 'assistant/chunk') !== undefined ||
        eventOf(l, sessionId, 'turn/end') !== undefined),
    `the first assistant/chunk on ${sessionId}`,
  );
  if (eventOf(first, sessionId, 'turn/end')) return 'too-fast';
  wire.pauseReading();
  const id = wire.sendRequest(method, { sessionId: target });
  await sleep(100);
  wire.resumeReading();
  const answer = await wire.answerTo(id, `${method} on ${target}`);
  return { answer, answerLine: wire.lines.find((l) => l.message === answer)! };
}

const TOO_FAST = 'the turn ended before it could be stopped: make the runtime reply slower (--env)';

/** The problems of a stopped turn's `turn/end` against the nested reason `kind`. */
function abortProblem(turnEnd: ServerLine, sessionId: string, kind: string): string | undefined {
  const reason = ((eventOf(turnEnd, sessionId)?.['data'] as JsonObject | undefined)?.['reason'] ??
    {}) as JsonObject;
  const nested = (reason['reason'] as JsonObject | undefined)?.['kind'];
  return reason['kind'] === 'aborted' && nested === kind
    ? undefined
    : `the stopped turn ended ${JSON.stringify(reason)}, not {kind: "aborted", reason: {kind: "${kind}"}}`;
}

async function checkInterruptedTurn(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  session: string,
  queued: boolean,
): Promise<void> {
  const from = wire.lines.length;
  wire.sendRequest('session/prompt', textPrompt(session, LONG_PROMPT));
  if (queued) wire.sendRequest('session/prompt', textPrompt(session, SHORT_PROMPT));
  const stopped = await stopWhileStreaming(wire, session, 'session/interrupt', from);
  const reqs = queued
    ? ['DSH-INTERRUPT-005']
    : ['DSH-INTERRUPT-003', 'DSH-INTERRUPT-004', 'DSH-INTERRUPT-005', 'DSH-EVENT-004'];
  if (stopped === 'too-fast') return reqs.forEach((r) => ctx.notTested(r, TOO_FAST));
  const result = stopped.answer['result'] as JsonObject | undefined;
  if (result?.['wasRunning'] !== true) {
    ctx.fail(
      'DSH-INTERRUPT-003',
      `interrupting a streaming turn was answered ${describeAnswer(stopped.answer)}, not {found: true, wasRunning: true}`,
    );
    return;
  }
  const limit = 2000 * ctx.env.timeScale;
  const turnEnd = await wire.waitFor(
    (l) => l.index >= from && eventOf(l, session, 'turn/end') !== undefined,
    `the interrupted turn's turn/end within ${limit} ms`,
    limit + 1000,
  );
  const late = turnEnd.at - stopped.answerLine.at;
  ctx.check(
    'DSH-INTERRUPT-004',
    late <= limit,
    `the interrupted turn's turn/end came ${Math.round(late)} ms after the answer (at most ${limit})`,
  );
  const problem = abortProblem(turnEnd, session, 'user');
  ctx.check('DSH-INTERRUPT-004', problem === undefined, problem ?? '');
  const after = (test: (l: ServerLine) => boolean) => (l: ServerLine) =>
    l.index > turnEnd.index && test(l);
  if (!queued) {
    const idle = await wire.waitFor(
      after((l) => isStatus(l, session, 'idle')),
      'idle after the interrupted turn',
    );
    const chunks = wire.lines.filter(
      (l) => l.index > stopped.answerLine.index && eventOf(l, session, 'assistant/chunk'),
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
    return;
  }
  const nextStart = await wire.waitFor(
    after(
      (l) =>
        eventOf(l, session, 'turn/start') !== undefined ||
        eventOf(l, session, 'agent/inbox/spliced') !== undefined,
    ),
    'the queued prompt starting after the interrupt',
  );
  const idleBetween = wire.lines.some(
    (l) => l.index > turnEnd.index && l.index < nextStart.index && isStatus(l, session, 'idle'),
  );
  ctx.check(
    'DSH-INTERRUPT-005',
    !idleBetween,
    'idle came between the interrupted turn and the queued one',
  );
  const nextEnd = await wire.waitFor(
    (l) => l.index > nextStart.index && eventOf(l, session, 'turn/end') !== undefined,
    "the queued prompt's turn/end",
  );
  await wire.waitFor(
    (l) => l.index > nextEnd.index && isStatus(l, session, 'idle'),
    'idle after the queued prompt',
  );
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
      await checkInterruptedTurn(ctx, wire, 'conformance-interrupt', false);
      await checkInterruptedTurn(ctx, wire, 'conformance-interrupt-queued', true);
      wire.closeStdin();
    },
  },
];
