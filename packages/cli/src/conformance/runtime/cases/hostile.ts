// Input a friendly client never sends: lines that are not messages, ids that cannot be echoed,
// batches, split writes, lone surrogates and a line over the frame limit. After each hostile line
// a ping (an unknown method) must still be answered `-32601`, under its id unchanged.
import { DEFAULT_MAX_FRAME_BYTES, ErrorCode, MAX_NESTING_DEPTH } from '@dsh-sdk/protocol';
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer, errorOf } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { hasRawSurrogate } from '../server-line.js';
import type { JsonObject, JsonRpcId } from '../server-line.js';
import { eventOf, isReceiptOf, runPrompt, sleep } from '../turns.js';
import type { RuntimeWire } from '../wire.js';

interface HostileLine {
  readonly label: string;
  readonly requirement: string;
  readonly bytes: Buffer;
  /** Ids the runtime must never answer because of this line. */
  readonly forbidden?: readonly unknown[];
  /** An answer it must give: its id and code. */
  readonly answer?: { readonly id: JsonRpcId; readonly code: number };
}

const ping = (id: unknown, extra = '') =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"conformance/ping"${extra}}`;
const line = (
  label: string,
  requirement: string,
  text: string | Buffer,
  forbidden: unknown[] = [],
): HostileLine => ({
  label,
  requirement,
  bytes: Buffer.concat([typeof text === 'string' ? Buffer.from(text) : text, Buffer.from('\n')]),
  forbidden,
});
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** The hostile lines, each with the requirement it tests. */
const HOSTILE_LINES: readonly HostileLine[] = [
  line('a line of text', 'DSH-HOSTILE-001', 'hello, runtime'),
  line('a cut JSON object', 'DSH-HOSTILE-001', ping(1001).slice(0, -1), [1001]),
  line('NaN', 'DSH-HOSTILE-001', ping(1002, ',"params":{"x":NaN}'), [1002]),
  line('Infinity', 'DSH-HOSTILE-001', ping(1003, ',"params":{"x":Infinity}'), [1003]),
  line(
    'a raw tab inside a string',
    'DSH-HOSTILE-001',
    ping(1004, ',"params":{"x":"a\tb"}'),
    [1004],
  ),
  line('trailing garbage', 'DSH-HOSTILE-001', `${ping(1005)} x`, [1005]),
  line(
    'a byte that is not UTF-8',
    'DSH-HOSTILE-001',
    Buffer.concat([
      Buffer.from(ping(1006, ',"params":{"x":"').slice(0, -1)),
      Buffer.from([0xff]),
      Buffer.from('"}}'),
    ]),
    [1006],
  ),
  line(
    'a surrogate encoded as UTF-8',
    'DSH-HOSTILE-001',
    Buffer.concat([
      Buffer.from(ping(1007, ',"params":{"x":"').slice(0, -1)),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}}'),
    ]),
    [1007],
  ),
  line('a number', 'DSH-HOSTILE-001', '42'),
  line('a string', 'DSH-HOSTILE-001', '"conformance"'),
  line('null', 'DSH-HOSTILE-001', 'null'),
  line('spaces only', 'DSH-HOSTILE-001', '   '),
  line('neither id nor method', 'DSH-HOSTILE-001', '{"jsonrpc":"2.0","params":{}}'),
  line(
    'a method that is not a string',
    'DSH-HOSTILE-001',
    '{"jsonrpc":"2.0","id":1011,"method":5}',
    [1011],
  ),
  line('a batch', 'DSH-HOSTILE-002', `[${ping(1008)}]`, [1008]),
  line('id null', 'DSH-HOSTILE-003', ping(null), [null]),
  line('id true', 'DSH-HOSTILE-003', ping(true), [true]),
  line('id an object', 'DSH-HOSTILE-003', ping({ a: 1 }), [{ a: 1 }]),
  line('id an array', 'DSH-HOSTILE-003', ping([1]), [[1]]),
  line(
    'id beyond 2^53−1',
    'DSH-HOSTILE-003',
    '{"jsonrpc":"2.0","id":9007199254740993,"method":"conformance/ping"}',
    [9007199254740992, 9007199254740993, '9007199254740993'],
  ),
  line(
    'jsonrpc "1.0"',
    'DSH-HOSTILE-009',
    '{"jsonrpc":"1.0","id":1009,"method":"conformance/ping"}',
    [1009],
  ),
  {
    label: 'no jsonrpc member',
    requirement: 'DSH-HOSTILE-009',
    bytes: Buffer.from('{"id":1010,"method":"conformance/ping"}\n'),
    answer: { id: 1010, code: ErrorCode.MethodNotFound },
  },
  line(
    'a result for an id nothing sent',
    'DSH-HOSTILE-007',
    '{"jsonrpc":"2.0","id":1012,"result":{}}',
    [1012],
  ),
  line(
    'an error for an id nothing sent',
    'DSH-HOSTILE-007',
    '{"jsonrpc":"2.0","id":1013,"error":{"code":-1,"message":"no"}}',
    [1013],
  ),
  line(
    'an unknown notification',
    'DSH-HOSTILE-007',
    '{"jsonrpc":"2.0","method":"conformance/notice","params":{}}',
  ),
  line(
    'a server notification sent to the server',
    'DSH-HOSTILE-007',
    '{"jsonrpc":"2.0","method":"session.status","params":{"sessionId":"x","status":"idle"}}',
  ),
  line('a blank line', 'DSH-HOSTILE-004', ''),
  line('a line of \\r alone', 'DSH-HOSTILE-004', '\r'),
  {
    label: 'a request ending \\r\\n',
    requirement: 'DSH-HOSTILE-004',
    bytes: Buffer.from(`${ping(1015)}\r\n`),
    answer: { id: 1015, code: ErrorCode.MethodNotFound },
  },
  {
    label: `a request nested ${MAX_NESTING_DEPTH + 6} levels deep`,
    requirement: 'DSH-HOSTILE-008',
    bytes: Buffer.from(`${ping(1014, `,"params":${deep(MAX_NESTING_DEPTH + 5)}`)}\n`),
    answer: { id: 1014, code: ErrorCode.InvalidRequest },
  },
];

/** Ping ids of every shape a runtime must echo unchanged. */
const PING_IDS: readonly JsonRpcId[] = [
  0,
  -1,
  '',
  '0',
  'é',
  1.5,
  9007199254740991,
  -9007199254740991,
  'conformance',
];

async function sendHostile(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  hostile: HostileLine,
  pingId: JsonRpcId,
): Promise<void> {
  for (const id of hostile.forbidden ?? [])
    wire.monitor.forbidAnswer(id, hostile.requirement, `after ${hostile.label}`);
  if (hostile.answer) wire.expectAnswer(hostile.answer.id, 'conformance/ping');
  wire.writeRaw(hostile.bytes);
  if (hostile.answer) {
    const answer = await wire.answerTo(
      hostile.answer.id,
      `${hostile.label} (id ${hostile.answer.id})`,
    );
    ctx.check(
      hostile.requirement,
      errorOf(answer)?.['code'] === hostile.answer.code,
      `${hostile.label} was answered ${describeAnswer(answer)}, not ${hostile.answer.code}`,
    );
  }
  let answer;
  try {
    answer = await wire.request('conformance/ping', {}, pingId);
  } catch (error) {
    ctx.fail(hostile.requirement, `after ${hostile.label}: ${(error as Error).message}`);
    throw error;
  }
  ctx.check(
    'DSH-ERR-001',
    errorOf(answer)?.['code'] === ErrorCode.MethodNotFound,
    `a ping was answered ${describeAnswer(answer)}, not -32601`,
  );
  ctx.pass(hostile.requirement);
}

/** Writes `bytes` a few at a time, with pauses, so they arrive in many reads. */
async function writeInPieces(wire: RuntimeWire, bytes: Buffer, step: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += step) {
    wire.writeRaw(bytes.subarray(at, at + step));
    await sleep(1);
  }
}

export const HOSTILE_CASES: readonly RuntimeCase[] = [
  {
    id: 'hostile.lines',
    title:
      'lines that are not messages, ids that cannot be echoed, batches, blank and \\r lines, deep nesting: none answered but the ones that must be, and pings of every id shape still answered',
    requirements: [
      'DSH-HOSTILE-001',
      'DSH-HOSTILE-002',
      'DSH-HOSTILE-003',
      'DSH-HOSTILE-004',
      'DSH-HOSTILE-007',
      'DSH-HOSTILE-008',
      'DSH-HOSTILE-009',
      'DSH-ERR-001',
    ],
    async run(ctx) {
      const wire = await ctx.start();
      for (const [i, hostile] of HOSTILE_LINES.entries())
        await sendHostile(ctx, wire, hostile, PING_IDS[i % PING_IDS.length] ?? `ping-${i}`);
      await ctx.initialize(wire);
      ctx.pass('DSH-HOSTILE-001');
      wire.closeStdin();
      await wire.waitExit(ctx.bound());
    },
  },
  {
    id: 'hostile.encoding',
    title:
      'requests written a few bytes at a time, split inside multi-byte characters; a lone surrogate in a prompt comes back escaped',
    requirements: ['DSH-HOSTILE-005', 'DSH-PROMPT-007', 'DSH-FRAME-005'],
    async run(ctx) {
      const wire = await ctx.start();
      const init = wire.nextId();
      wire.expectAnswer(init, 'initialize');
      await writeInPieces(
        wire,
        Buffer.from(
          `${JSON.stringify({ jsonrpc: '2.0', id: init, method: 'initialize', params: ctx.initializeParams(ctx.runtimeVersion >= 2 ? ctx.runtimeVersion : undefined) })}\n`,
        ),
        3,
      );
      const answer = await wire.answerTo(init, 'initialize written in 3-byte pieces');
      ctx.check(
        'DSH-HOSTILE-005',
        answer['result'] !== undefined,
        `initialize written in pieces was answered ${describeAnswer(answer)}`,
      );
      const text = 'naïve café — 日本語のテキスト 🌊🌊 and a reply of one sentence, please';
      const promptId = wire.nextId();
      wire.expectAnswer(promptId, 'session/prompt');
      await writeInPieces(
        wire,
        Buffer.from(
          `${JSON.stringify({ jsonrpc: '2.0', id: promptId, method: 'session/prompt', params: { sessionId: 'conformance-utf8', contentBlocks: [{ type: 'text', text }] } })}\n`,
        ),
        5,
      );
      const prompted = await wire.answerTo(promptId, 'session/prompt written in 5-byte pieces');
      const messageId = String((prompted['result'] as JsonObject | undefined)?.['messageId']);
      ctx.check(
        'DSH-HOSTILE-005',
        prompted['result'] !== undefined,
        `a prompt written in pieces was answered ${describeAnswer(prompted)}`,
      );
      const receipt = await wire.waitFor(
        isReceiptOf('conformance-utf8', messageId),
        `the receipt of ${messageId}`,
      );
      const inserted = JSON.stringify(eventOf(receipt, 'conformance-utf8')?.['data']);
      ctx.check(
        'DSH-PROMPT-007',
        inserted.includes(JSON.stringify(text).slice(1, -1)),
        `the receipt does not hold the prompt's text unchanged: ${inserted.slice(0, 200)}`,
      );
      await runPrompt(
        wire,
        'conformance-surrogate',
        'a lone \ud800 surrogate, and a reply of one sentence, please',
      );
      const raw = wire.lines.filter((l) => hasRawSurrogate(l.raw));
      ctx.check(
        'DSH-FRAME-005',
        raw.length === 0,
        `${raw.length} line(s) hold a surrogate as UTF-8 bytes instead of \\ud800`,
      );
      wire.closeStdin();
    },
  },
  {
    id: 'hostile.long-line',
    title: 'a line over the 64 MiB frame limit is dropped and the next request is answered',
    requirements: ['DSH-HOSTILE-006'],
    scale: 6,
    async run(ctx) {
      const wire = await ctx.startInitialized();
      wire.monitor.forbidAnswer(1100, 'DSH-HOSTILE-006', 'a line over the frame limit');
      const total = DEFAULT_MAX_FRAME_BYTES + 1024;
      wire.writeRaw('{"jsonrpc":"2.0","id":1100,"method":"conformance/ping","params":"');
      const piece = Buffer.alloc(1024 * 1024, 'a');
      for (let sent = 0; sent < total; sent += piece.length) {
        wire.writeRaw(piece);
        await wire.drained();
      }
      wire.writeRaw('\n');
      const answer = await wire.request('conformance/ping', {}, 'after-the-long-line');
      ctx.check(
        'DSH-HOSTILE-006',
        errorOf(answer)?.['code'] === ErrorCode.MethodNotFound,
        `the ping after the long line was answered ${describeAnswer(answer)}`,
      );
      wire.closeStdin();
    },
  },
];
