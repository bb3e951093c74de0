// Prompts and their turns: receipts, the answer before the end, the order the IDL's sequences
// show, queues, independent sessions and images.
import { ErrorCode } from '@dsh-sdk/protocol';
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer, errorOf, violationPointers } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { orderProblems } from '../sequence-order.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import {
  SHORT_PROMPT,
  concerns,
  eventOf,
  insertedIds,
  isReceiptOf,
  isStatus,
  runPrompt,
  textPrompt,
} from '../turns.js';
import type { RuntimeWire } from '../wire.js';
import { checkEndOfInput } from './handshake.js';

/** A 1×1 PNG, canonical padded base64. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The text of a turn's chunks, joined, and of its last `assistant/message`. */
function replyTexts(
  lines: readonly ServerLine[],
  sessionId: string,
): { chunks: string; message?: string } {
  const text = (blocks: unknown): string =>
    (Array.isArray(blocks) ? blocks : [blocks])
      .filter(
        (b): b is JsonObject =>
          typeof b === 'object' && b !== null && (b as JsonObject)['type'] === 'text',
      )
      .map((b) => String(b['text']))
      .join('');
  let chunks = '';
  let message: string | undefined;
  for (const line of lines) {
    const chunk = eventOf(line, sessionId, 'assistant/chunk');
    if (chunk) chunks += text((chunk['data'] as JsonObject)['delta']);
    const reply = eventOf(line, sessionId, 'assistant/message');
    if (reply) message = text(((reply['data'] as JsonObject)['message'] as JsonObject)['content']);
  }
  return message === undefined ? { chunks } : { chunks, message };
}

async function checkSimpleTurn(ctx: RuntimeCaseContext, wire: RuntimeWire): Promise<void> {
  const run = await runPrompt(wire, 'conformance-1', SHORT_PROMPT);
  ctx.pass('DSH-PROMPT-001');
  ctx.check(
    'DSH-PROMPT-002',
    run.answer.index < run.turnEnd.index,
    'the answer to session/prompt came after its turn/end',
  );
  ctx.pass('DSH-PROMPT-003');
  const turn = wire.lines.filter(
    (line) => line.index <= run.idle.index && concerns(line, 'conformance-1'),
  );
  for (const problem of orderProblems('promptLife', turn)) ctx.fail('DSH-EVENT-004', problem);
  ctx.pass('DSH-EVENT-004');
  const reply = replyTexts(turn, 'conformance-1');
  if (reply.message === undefined)
    ctx.fail('DSH-EVENT-005', 'the completed turn wrote no assistant/message');
  else if (reply.chunks !== '')
    ctx.check(
      'DSH-EVENT-005',
      reply.chunks === reply.message,
      `the chunks say ${JSON.stringify(reply.chunks.slice(0, 80))}, the message ${JSON.stringify(reply.message.slice(0, 80))}`,
    );
}

/** Two prompts at once on one session: queued, run in order, one turn at a time. */
async function checkQueue(ctx: RuntimeCaseContext, wire: RuntimeWire): Promise<void> {
  const session = 'conformance-queue';
  const texts = [SHORT_PROMPT, `${SHORT_PROMPT} (the second one)`];
  const answers = await Promise.all(
    texts.map((text) => wire.request('session/prompt', textPrompt(session, text))),
  );
  const ids = answers.map((a) => String((a['result'] as JsonObject | undefined)?.['messageId']));
  const receipts = await Promise.all(
    ids.map((id) => wire.waitFor(isReceiptOf(session, id), `the receipt of ${id}`)),
  );
  ctx.check(
    'DSH-PROMPT-004',
    receipts[0]!.index < receipts[1]!.index,
    'the second prompt was taken before the first',
  );
  const ends = (line: ServerLine) => eventOf(line, session, 'turn/end') !== undefined;
  await wire.waitFor((l) => ends(l) && wire.lines.filter(ends).length >= 2, 'the second turn/end');
  const lastEnd = wire.lines.filter(ends)[1]!;
  await wire.waitFor(
    (l) => l.index > lastEnd.index && isStatus(l, session, 'idle'),
    'idle after both turns',
  );
  const marks = wire.lines
    .map((l) => eventOf(l, session)?.['type'])
    .filter((type) => type === 'turn/start' || type === 'turn/end');
  const alternating =
    !marks.includes('turn/start') ||
    marks.every((type, i) => type === (i % 2 === 0 ? 'turn/start' : 'turn/end'));
  ctx.check('DSH-PROMPT-004', alternating, `the session's turns overlapped: ${marks.join(', ')}`);
}

export const PROMPT_CASES: readonly RuntimeCase[] = [
  {
    id: 'prompt.turn',
    title:
      "one prompt's life: answer, receipt, the order of promptLife, turn/end then idle; a queue of two prompts; stdin's end after",
    requirements: [
      'DSH-PROMPT-001',
      'DSH-PROMPT-002',
      'DSH-PROMPT-003',
      'DSH-PROMPT-004',
      'DSH-EVENT-004',
      'DSH-EVENT-005',
      'DSH-SHUTDOWN-004',
    ],
    async run(ctx) {
      const wire = await ctx.startInitialized();
      await checkSimpleTurn(ctx, wire);
      await checkQueue(ctx, wire);
      await checkEndOfInput(ctx, wire, 'after turns');
    },
  },
  {
    id: 'session.concurrent',
    title: 'two sessions prompted at once both run to idle, each with its own receipts',
    requirements: ['DSH-SESSION-001'],
    async run(ctx) {
      const wire = await ctx.startInitialized();
      const sessions = ['conformance-a', 'conformance-b'];
      const runs = await Promise.all(sessions.map((s) => runPrompt(wire, s, SHORT_PROMPT)));
      ctx.pass('DSH-SESSION-001');
      for (const [i, session] of sessions.entries()) {
        const foreign = wire.lines
          .map((line) => eventOf(line, session, 'agent/inbox/spliced'))
          .filter((e): e is JsonObject => e !== undefined)
          .flatMap(insertedIds)
          .filter((id) => id === runs[1 - i]!.messageId);
        ctx.check(
          'DSH-SESSION-001',
          foreign.length === 0,
          `session ${session}'s receipts hold the other session's message ${foreign[0]}`,
        );
      }
      wire.closeStdin();
    },
  },
  {
    id: 'prompt.images',
    title:
      'an inline PNG becomes a durable reference in the receipt; a durable image the runtime does not hold is refused at its block',
    requirements: ['DSH-PROMPT-005', 'DSH-PROMPT-006'],
    async run(ctx) {
      const wire = await ctx.startInitialized();
      const answer = await wire.request('session/prompt', {
        sessionId: 'conformance-image',
        contentBlocks: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
        ],
      });
      const messageId = (answer['result'] as JsonObject | undefined)?.['messageId'];
      if (typeof messageId !== 'string')
        ctx.fail(
          'DSH-PROMPT-005',
          `a prompt with an inline PNG was answered ${describeAnswer(answer)}`,
        );
      else {
        const receipt = await wire.waitFor(
          isReceiptOf('conformance-image', messageId),
          `the receipt of ${messageId}`,
        );
        const inserted = (
          (eventOf(receipt, 'conformance-image')!['data'] as JsonObject)['inserted'] as JsonObject[]
        ).find((m) => m['id'] === messageId);
        const image = (inserted?.['content'] as JsonObject[] | undefined)?.find(
          (b) => b['type'] === 'image',
        );
        const attachment = image?.['attachment'] as JsonObject | undefined;
        ctx.check(
          'DSH-PROMPT-005',
          image !== undefined &&
            image['data'] === undefined &&
            typeof attachment?.['attachmentId'] === 'string',
          `the receipt's image block is ${JSON.stringify(image)?.slice(0, 200)}, not a durable reference`,
        );
      }
      const unheld = {
        type: 'image',
        attachment: { attachmentId: `sha256-${'0'.repeat(64)}`, mediaType: 'image/png' },
      };
      const refused = await wire.request('session/prompt', {
        sessionId: 'conformance-unheld',
        contentBlocks: [unheld],
      });
      const atBlock = violationPointers(refused).some(
        (p) => p === '/contentBlocks/0' || p.startsWith('/contentBlocks/0/'),
      );
      ctx.check(
        'DSH-PROMPT-006',
        errorOf(refused)?.['code'] === ErrorCode.InvalidParams && atBlock,
        `a durable image the runtime does not hold was answered ${describeAnswer(refused)}, not -32602 at /contentBlocks/0`,
      );
      wire.closeStdin();
    },
  },
];
