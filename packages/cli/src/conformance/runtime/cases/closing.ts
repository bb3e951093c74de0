// Closing a streaming session (WIRE.md §9, the IDL's closeSession): its closing frames before the
// answer, nothing of it after, its queue dropped, other sessions untouched, and a new session
// under the same id. How the turn is caught running: stop-attempts.ts.
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { orderProblems } from '../sequence-order.js';
import type { ServerLine } from '../server-line.js';
import {
  LONG_PROMPT,
  SHORT_PROMPT,
  concerns,
  eventOf,
  isStatus,
  runPrompt,
  textPrompt,
} from '../turns.js';
import type { RuntimeWire } from '../wire.js';
import { abortProblem, promptAndStop, reasonOf, turnEnds, withAttempts } from './stop-attempts.js';
import type { Stopped } from './stop-attempts.js';

const OTHER = 'conformance-other';
const seqOf = (line: ServerLine, session: string) => eventOf(line, session)?.['seq'];

async function checkOtherSession(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  from: number,
): Promise<void> {
  const end = await wire.waitFor(
    (l) => l.index >= from && eventOf(l, OTHER, 'turn/end') !== undefined,
    `the turn/end of ${OTHER}`,
  );
  const reason = reasonOf(end, OTHER)['kind'];
  ctx.check(
    'DSH-CLOSE-003',
    reason !== 'aborted',
    `closing another session stopped ${OTHER} too (its turn ended aborted)`,
  );
  await wire.waitFor((l) => l.index > end.index && isStatus(l, OTHER, 'idle'), `idle on ${OTHER}`);
}

/** Nothing of the closed session after the answer (a ping's round trip later). */
async function checkNothingAfter(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  session: string,
  stopped: Stopped,
): Promise<void> {
  ctx.check(
    'DSH-CLOSE-002',
    JSON.stringify(stopped.answer['result']) === '{"found":true}',
    `closing a session with a turn was answered ${describeAnswer(stopped.answer)}`,
  );
  await wire.request('conformance/ping', {});
  const after = wire.lines.filter(
    (l) => l.index > stopped.answerLine.index && concerns(l, session),
  );
  ctx.check(
    'DSH-CLOSE-002',
    after.length === 0,
    `${after.length} notification(s) of the closed session followed the answer, e.g. ${JSON.stringify(after[0]?.message)?.slice(0, 160)}`,
  );
}

/** Judges the frames before the answer; 'raced' when the first turn had completed before the close. */
function judgeClose(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  session: string,
  stopped: Stopped,
): 'judged' | 'raced' {
  const { from, answerLine } = stopped;
  const before = wire.lines.filter(
    (l) => l.index >= from && l.index < answerLine.index && concerns(l, session),
  );
  const ends = turnEnds(wire, session, from).filter((l) => l.index < answerLine.index);
  const closing = ends[0];
  if (!closing) {
    const started = before.some((l) => eventOf(l, session, 'turn/start') !== undefined);
    if (started)
      ctx.fail(
        'DSH-CLOSE-007',
        'the closed turn had started, but no turn/end of it came before the answer',
      );
    return started ? 'judged' : 'raced';
  }
  if (reasonOf(closing, session)['kind'] !== 'aborted') return 'raced';
  const problem = abortProblem(closing, session, 'disposed');
  ctx.check('DSH-CLOSE-007', problem === undefined, problem ?? '');
  ctx.check(
    'DSH-CLOSE-007',
    before.some((l) => l.index > closing.index && isStatus(l, session, 'idle')),
    'no idle of the closed session between its turn/end and the answer',
  );
  const queuedRan = before.some(
    (l) => l.index > closing.index && eventOf(l, session, 'turn/start') !== undefined,
  );
  ctx.check('DSH-CLOSE-005', !queuedRan, 'the prompt queued behind the closed turn started');
  for (const p of orderProblems('closeSession', before)) ctx.fail('DSH-EVENT-004', p);
  return 'judged';
}

export const CLOSING_CASES: readonly RuntimeCase[] = [
  {
    id: 'stop.close-running',
    title:
      'close a running session with a prompt queued, while another session streams: the closing frames, nothing after the answer, the queue dropped, the other session untouched; then the same id anew',
    requirements: [
      'DSH-CLOSE-002',
      'DSH-CLOSE-003',
      'DSH-CLOSE-004',
      'DSH-CLOSE-005',
      'DSH-CLOSE-007',
      'DSH-EVENT-004',
    ],
    versions: 'v2',
    async run(ctx) {
      const wire = await ctx.startInitialized();
      const otherFrom = wire.lines.length;
      wire.sendRequest('session/prompt', textPrompt(OTHER, LONG_PROMPT));
      let closed: { session: string; firstSeq: unknown } | undefined;
      await withAttempts(
        ctx,
        ['DSH-CLOSE-005', 'DSH-CLOSE-007'],
        'conformance-closed',
        async (mode, session) => {
          const stopped = await promptAndStop(
            wire,
            mode,
            session,
            [LONG_PROMPT, SHORT_PROMPT],
            'session/close',
          );
          if (stopped === 'too-fast') return 'raced';
          const first = wire.lines.find(
            (l) => l.index >= stopped.from && seqOf(l, session) !== undefined,
          );
          closed = { session, firstSeq: first && seqOf(first, session) };
          const verdict = judgeClose(ctx, wire, session, stopped);
          await checkNothingAfter(ctx, wire, session, stopped);
          return verdict;
        },
      );
      await checkOtherSession(ctx, wire, otherFrom);
      if (!closed || closed.firstSeq === undefined)
        return ctx.notTested('DSH-CLOSE-004', 'no session was closed after its events began');
      const reopened = wire.lines.length;
      await runPrompt(wire, closed.session, SHORT_PROMPT);
      const first = wire.lines.find(
        (l) => l.index >= reopened && seqOf(l, closed!.session) !== undefined,
      );
      const newSeq = first && seqOf(first, closed.session);
      ctx.check(
        'DSH-CLOSE-004',
        newSeq === closed.firstSeq,
        `the session prompted again after its close starts at seq ${newSeq}, the closed one started at ${closed.firstSeq}`,
      );
      wire.closeStdin();
    },
  },
];
