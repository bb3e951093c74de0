// Closing a streaming session (WIRE.md §9, the IDL's closeSession): its closing frames before the
// answer, nothing of it after, its queue dropped, other sessions untouched, and a new session
// under the same id.
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
  isReceiptOf,
  isStatus,
  runPrompt,
  textPrompt,
} from '../turns.js';
import type { RuntimeWire } from '../wire.js';
import { stopWhileStreaming } from './stopping.js';

const CLOSED = 'conformance-closed';
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
  const reason = (
    (eventOf(end, OTHER)!['data'] as JsonObject)['reason'] as JsonObject | undefined
  )?.['kind'];
  ctx.check(
    'DSH-CLOSE-003',
    reason !== 'aborted',
    `closing ${CLOSED} stopped ${OTHER} too (its turn ended aborted)`,
  );
  await wire.waitFor((l) => l.index > end.index && isStatus(l, OTHER, 'idle'), `idle on ${OTHER}`);
}

export const CLOSING_CASES: readonly RuntimeCase[] = [
  {
    id: 'stop.close-running',
    title:
      'close a streaming session with a prompt queued, while another session streams: the closing frames, nothing after the answer, the queue dropped, the other session untouched; then the same id anew',
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
      const from = wire.lines.length;
      wire.sendRequest('session/prompt', textPrompt(OTHER, LONG_PROMPT));
      wire.sendRequest('session/prompt', textPrompt(CLOSED, LONG_PROMPT));
      const queued = wire.request('session/prompt', textPrompt(CLOSED, SHORT_PROMPT));
      const stopped = await stopWhileStreaming(wire, CLOSED, 'session/close', from);
      if (stopped === 'too-fast') {
        for (const r of ['DSH-CLOSE-002', 'DSH-CLOSE-005', 'DSH-CLOSE-007'])
          ctx.notTested(
            r,
            'the turn ended before it could be closed: make the runtime reply slower (--env)',
          );
      } else {
        ctx.check(
          'DSH-CLOSE-002',
          JSON.stringify(stopped.answer['result']) === '{"found":true}',
          `closing a streaming session: ${describeAnswer(stopped.answer)}`,
        );
        const before = wire.lines.filter(
          (l) => l.index >= from && l.index < stopped.answerLine.index && concerns(l, CLOSED),
        );
        const turnEnd = before.filter((l) => eventOf(l, CLOSED, 'turn/end')).pop();
        const reason = (
          eventOf(turnEnd ?? before[0]!, CLOSED)?.['data'] as JsonObject | undefined
        )?.['reason'] as JsonObject | undefined;
        ctx.check(
          'DSH-CLOSE-007',
          turnEnd !== undefined &&
            reason?.['kind'] === 'aborted' &&
            (reason['reason'] as JsonObject | undefined)?.['kind'] === 'disposed',
          `before the answer the closed turn ended ${turnEnd ? JSON.stringify(reason) : 'not at all'}, not {kind: "aborted", reason: {kind: "disposed"}}`,
        );
        ctx.check(
          'DSH-CLOSE-007',
          before.some((l) => isStatus(l, CLOSED, 'idle')),
          'no idle of the closed session before the answer',
        );
        for (const p of orderProblems('closeSession', before)) ctx.fail('DSH-EVENT-004', p);
        await checkOtherSession(ctx, wire, from);
        const queuedId = String(
          ((await queued)['result'] as JsonObject | undefined)?.['messageId'],
        );
        await wire.request('conformance/ping', {});
        const after = wire.lines.filter(
          (l) => l.index > stopped.answerLine.index && concerns(l, CLOSED),
        );
        ctx.check(
          'DSH-CLOSE-002',
          after.length === 0,
          `${after.length} notification(s) of the closed session followed the answer, e.g. ${JSON.stringify(after[0]?.message)?.slice(0, 160)}`,
        );
        ctx.check(
          'DSH-CLOSE-005',
          !wire.lines.some(isReceiptOf(CLOSED, queuedId)),
          'the prompt queued behind the closed turn ran',
        );
      }
      const firstSeq = seqOf(
        wire.lines.find((l) => seqOf(l, CLOSED) !== undefined)!,
        CLOSED,
      );
      const reopened = wire.lines.length;
      await runPrompt(wire, CLOSED, SHORT_PROMPT);
      const newSeq = seqOf(
        wire.lines.find((l) => l.index >= reopened && seqOf(l, CLOSED) !== undefined)!,
        CLOSED,
      );
      ctx.check(
        'DSH-CLOSE-004',
        newSeq === firstSeq,
        `the session prompted again after its close starts at seq ${newSeq}, the closed one started at ${firstSeq}`,
      );
      wire.closeStdin();
    },
  },
];
