import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LineReader } from '../src/line-reader.js';
import { JsonRpcLineTransport } from '../src/transport.js';
import type { TransportDiagnostic } from '../src/diagnostics.js';
import type { DiagnosticReason } from '../src/gen/constants.gen.js';

const MAX_FRAME_BYTES = 2048;

interface Frame {
  readonly method: string;
  readonly params: { readonly seq: number; readonly payload: unknown };
}

/** Single code points of any plane, plus the characters that framing could trip over. */
const textUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('\n', '\r', '\u2028', '\uFFFD', '\ud800', '\udfff', '\u0000', '"', '\\'),
);

/** JSON values with any Unicode text (lone surrogates included), as params payloads. */
const payload = fc.jsonValue({ maxDepth: 3, stringUnit: textUnit });

/** Valid notification frames whose line fits the frame limit. */
const frames = fc
  .array(fc.record({ method: fc.constantFrom('session.event', 'session.status'), payload }), {
    maxLength: 30,
  })
  .map((items) =>
    items.map(({ method, payload: data }, seq): Frame => ({
      method,
      params: { seq, payload: data },
    })),
  )
  .filter((items) => items.every((frame) => Buffer.byteLength(lineOf(frame)) <= MAX_FRAME_BYTES));

function lineOf(frame: Frame): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...frame })}\n`;
}

/** Cuts `bytes` at the given fractions of its length (any position, inside characters too). */
function chunk(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const positions = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))].sort(
    (a, b) => a - b,
  );
  const chunks: Buffer[] = [];
  let start = 0;
  for (const position of [...positions, bytes.length]) {
    if (position > start) chunks.push(bytes.subarray(start, position));
    start = Math.max(start, position);
  }
  return chunks;
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });

/** A line that is not a valid message, with the reason it must be reported with (none if blank). */
interface Garbage {
  readonly bytes: Buffer;
  readonly reason: DiagnosticReason | undefined;
}

const withoutNewlines = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.filter((byte) => byte !== 0x0a));

const garbage: fc.Arbitrary<Garbage> = fc.oneof(
  fc.constantFrom('', '\r').map((text) => ({ bytes: Buffer.from(text), reason: undefined })),
  fc
    .tuple(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }))
    .map(([before, after]) => ({
      // 0xFF never occurs in UTF-8.
      bytes: Buffer.concat([withoutNewlines(before), Buffer.from([0xff]), withoutNewlines(after)]),
      reason: 'invalid-utf8' as const,
    })),
  fc
    .tuple(payload, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }))
    .map(([data, cut]) => {
      // A proper prefix of a compact JSON object is never valid JSON.
      const text = JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params: data });
      return {
        bytes: Buffer.from(text.slice(0, Math.floor(cut * text.length))),
        reason: 'invalid-json' as const,
      };
    })
    .filter(({ bytes }) => bytes.length > 0),
  fc.constantFrom('NaN', '{"method":"m",}', "{'a':1}", '{"a":1}}').map((text) => ({
    bytes: Buffer.from(text),
    reason: 'invalid-json' as const,
  })),
  fc
    .oneof(fc.integer(), fc.string({ unit: textUnit }), fc.boolean(), fc.constant(null))
    .map((value) => ({
      bytes: Buffer.from(JSON.stringify(value)),
      reason: 'not-an-object' as const,
    })),
  fc.array(payload, { maxLength: 3 }).map((items) => ({
    bytes: Buffer.from(JSON.stringify(items)),
    reason: 'batch-unsupported' as const,
  })),
  fc.constantFrom(null, true, {}, [1]).map((id) => ({
    bytes: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'session.event' })),
    reason: 'invalid-id' as const,
  })),
  fc
    .constantFrom(
      '{}',
      '{"jsonrpc":"2.0"}',
      '{"method":7}',
      '{"id":1}',
      '{"jsonrpc":"1.0","method":"m"}',
    )
    .map((text) => ({
      bytes: Buffer.from(text),
      reason: 'invalid-message' as const,
    })),
  fc.integer({ min: MAX_FRAME_BYTES + 1, max: MAX_FRAME_BYTES * 3 }).map((length) => ({
    bytes: Buffer.alloc(length, 0x7b),
    reason: 'frame-too-large' as const,
  })),
);

/** Valid frames with garbage lines before, between and after them. */
const interleaved = fc
  .tuple(frames, fc.array(fc.tuple(fc.nat(), garbage), { maxLength: 20 }))
  .map(([valid, junk]) => {
    const slots: (Frame | Garbage)[][] = Array.from({ length: valid.length + 1 }, () => []);
    for (const [slot, line] of junk) slots[slot % slots.length]?.push(line);
    const lines: (Frame | Garbage)[] = [];
    slots.forEach((slot, index) => {
      lines.push(...slot);
      const frame = valid[index];
      if (frame) lines.push(frame);
    });
    return { valid, lines };
  });

function isGarbage(line: Frame | Garbage): line is Garbage {
  return 'bytes' in line;
}

function encode(lines: readonly (Frame | Garbage)[]): Buffer {
  return Buffer.concat(
    lines.map((line) =>
      isGarbage(line) ? Buffer.concat([line.bytes, Buffer.from('\n')]) : Buffer.from(lineOf(line)),
    ),
  );
}

/** Feeds the chunks through a real transport and collects what it delivers and reports. */
async function runTransport(
  chunks: readonly Buffer[],
): Promise<{ delivered: Frame[]; diagnostics: TransportDiagnostic[] }> {
  const input = new PassThrough();
  const diagnostics: TransportDiagnostic[] = [];
  const transport = new JsonRpcLineTransport({
    input,
    output: new PassThrough(),
    maxFrameBytes: MAX_FRAME_BYTES,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
  const delivered: Frame[] = [];
  for (const method of ['session.event', 'session.status']) {
    transport.onNotification(
      method,
      (params) => void delivered.push({ method, params: params as Frame['params'] }),
    );
  }
  transport.start();
  for (const piece of chunks) input.write(piece);
  input.end();
  await transport.closed;
  return { delivered, diagnostics };
}

describe('framing properties', () => {
  test('any chunking of a valid stream yields the same lines in the same order', () => {
    fc.assert(
      fc.property(frames, cuts, (valid, at) => {
        const bytes = Buffer.concat(valid.map((frame) => Buffer.from(lineOf(frame))));
        const lines: string[] = [];
        const reader = new LineReader({
          acceptLine: (text) => void lines.push(text),
          rejectLine: (reason) => {
            throw new Error(`unexpected ${reason}`);
          },
        });
        for (const piece of chunk(bytes, at)) reader.push(piece);
        reader.end();
        expect(lines).toEqual(valid.map((frame) => lineOf(frame).slice(0, -1)));
      }),
      { numRuns: 300 },
    );
  });

  test('any chunking of a valid stream delivers the same messages in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(frames, cuts, async (valid, at) => {
        const bytes = Buffer.concat(valid.map((frame) => Buffer.from(lineOf(frame))));
        const { delivered, diagnostics } = await runTransport(chunk(bytes, at));
        expect(diagnostics).toEqual([]);
        expect(delivered).toEqual(JSON.parse(JSON.stringify(valid)));
      }),
      { numRuns: 150 },
    );
  });

  test('garbage lines anywhere never lose, reorder or corrupt valid messages', async () => {
    await fc.assert(
      fc.asyncProperty(interleaved, cuts, async ({ valid, lines }, at) => {
        const { delivered, diagnostics } = await runTransport(chunk(encode(lines), at));
        expect(delivered).toEqual(JSON.parse(JSON.stringify(valid)));
        const expected = lines.flatMap((line, index) =>
          isGarbage(line) && line.reason ? [{ reason: line.reason, line: index + 1 }] : [],
        );
        expect(diagnostics.map(({ reason, line }) => ({ reason, line }))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
