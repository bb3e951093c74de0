// The reader decodes the complete lines of a chunk with one call: these tests feed the real
// transport over a real stream and cut the same bytes at every offset, so each line meets a chunk
// boundary in every possible place, inside multi-byte characters included.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { JsonRpcLineTransport } from '../src/index.js';
import type { NotificationContext, TransportDiagnostic } from '../src/index.js';

interface Delivery {
  readonly params: unknown;
  readonly line: number;
  readonly bytes: number;
}

/** Runs `chunks` through a transport; resolves with what it delivered and reported. */
async function readThroughTransport(
  chunks: readonly Buffer[],
  maxFrameBytes?: number,
): Promise<{ deliveries: Delivery[]; diagnostics: TransportDiagnostic[] }> {
  const input = new PassThrough();
  const diagnostics: TransportDiagnostic[] = [];
  const transport = new JsonRpcLineTransport({
    input,
    output: new PassThrough().resume(),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
  });
  const deliveries: Delivery[] = [];
  transport.onNotification('n', (params, { line, bytes }: NotificationContext) => {
    deliveries.push({ params, line, bytes });
  });
  transport.start();
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await transport.closed;
  return { deliveries, diagnostics };
}

const frame = (params: unknown): string => `${JSON.stringify({ method: 'n', params })}\n`;

/** Two chunks, cut at `offset`. */
const cutAt = (bytes: Buffer, offset: number): Buffer[] => [
  Buffer.from(bytes.subarray(0, offset)),
  Buffer.from(bytes.subarray(offset)),
];

describe('decoding the complete lines of a chunk at once', () => {
  // 1-, 2-, 3- and 4-byte characters, a legitimate U+FFFD, CRLF, a blank line.
  const texts = ['plain', 'héllo', '你好', '🎉 party', 'a\uFFFDb', 'é'.repeat(40), '∑🎉x'];
  const source = Buffer.from(
    [...texts.slice(0, 3).map(frame), '\n', frame(texts[3]).replace('\n', '\r\n')]
      .concat(texts.slice(4).map(frame))
      .join(''),
  );
  const expected = texts.map((text, i) => {
    const line = i < 3 ? i + 1 : i + 2; // the blank line is line 4
    const bytes = Buffer.byteLength(frame(text)) - 1 + (i === 3 ? 1 : 0); // CRLF counts its \r
    return { params: text, line, bytes };
  });

  test('delivers every line intact, with its line number and byte size, cut at every offset', async () => {
    for (let offset = 0; offset <= source.length; offset += 1) {
      const { deliveries, diagnostics } = await readThroughTransport(cutAt(source, offset));
      expect({ offset, deliveries, diagnostics }).toEqual({
        offset,
        deliveries: expected,
        diagnostics: [],
      });
    }
  });

  test('delivers the same when the bytes come one at a time and all in one chunk', async () => {
    const oneByOne = [...source].map((byte) => Buffer.from([byte]));
    expect((await readThroughTransport(oneByOne)).deliveries).toEqual(expected);
    expect((await readThroughTransport([source])).deliveries).toEqual(expected);
  });
});

describe('invalid UTF-8 among valid lines of one chunk', () => {
  const valid = (text: string): Buffer => Buffer.from(frame(text));
  const invalid = (bytes: number[]): Buffer =>
    Buffer.concat([
      Buffer.from('{"method":"n","params":"'),
      Buffer.from(bytes),
      Buffer.from('"}\n'),
    ]);
  const lines = [
    valid('first é'),
    invalid([0xff]), // never valid
    valid('a\uFFFDb'), // a real U+FFFD, not an error
    invalid([0xc3]), // a character cut short inside the line
    invalid([0xed, 0xa0, 0x80]), // an encoded surrogate
    valid('🎉 last'),
  ];
  const source = Buffer.concat(lines);

  test('reports each invalid line on its own and delivers the others, cut at every offset', async () => {
    for (let offset = 0; offset <= source.length; offset += 1) {
      const { deliveries, diagnostics } = await readThroughTransport(cutAt(source, offset));
      expect({
        offset,
        delivered: deliveries.map(({ params, line }) => [params, line]),
        reported: diagnostics.map(({ reason, line, bytes, message }) => [
          reason,
          line,
          bytes,
          message,
        ]),
      }).toEqual({
        offset,
        delivered: [
          ['first é', 1],
          ['a\uFFFDb', 3],
          ['🎉 last', 6],
        ],
        reported: [2, 4, 5].map((line) => [
          'invalid-utf8',
          line,
          lines[line - 1]!.length - 1,
          'the line is not valid UTF-8',
        ]),
      });
    }
  });
});

describe('frame limit inside a chunk of multi-byte lines', () => {
  test('measures each line in bytes, not characters', async () => {
    const fits = frame('é'.repeat(20)); // 66 bytes before the \n, 46 characters
    const tooLong = frame('é'.repeat(21)); // 68 bytes, 47 characters
    const source = Buffer.from(fits + tooLong + fits);
    const { deliveries, diagnostics } = await readThroughTransport([source], 66);
    expect(deliveries.map(({ line, bytes }) => [line, bytes])).toEqual([
      [1, 66],
      [3, 66],
    ]);
    expect(diagnostics.map(({ reason, line, bytes }) => [reason, line, bytes])).toEqual([
      ['frame-too-large', 2, 68],
    ]);
  });
});

describe('big frames', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const mib of [8, 16]) {
    test(`reads a ${mib} MiB frame of multi-byte text in 64 KiB chunks, decoding each byte once`, async () => {
      const text = '€uro '.repeat(Math.ceil((mib * 2 ** 20) / 7));
      const source = Buffer.from(frame(text) + frame('after'));
      const chunks: Buffer[] = [];
      for (let at = 0; at < source.length; at += 64 * 1024)
        chunks.push(source.subarray(at, at + 64 * 1024));
      // Work counted, not timed: a reader that re-decoded its pending bytes per chunk would decode
      // about (chunks / 2) times the frame.
      const toString = vi.spyOn(Buffer.prototype, 'toString');
      const { deliveries, diagnostics } = await readThroughTransport(chunks);
      const decoded = toString.mock.calls.reduce((sum, [, start, end], i) => {
        const length = (toString.mock.contexts[i] as Buffer).length;
        return sum + ((end as number | undefined) ?? length) - ((start as number | undefined) ?? 0);
      }, 0);
      toString.mockRestore();
      expect(diagnostics).toEqual([]);
      expect(deliveries.map(({ params }) => params)).toEqual([text, 'after']);
      expect(decoded).toBeLessThanOrEqual(source.length);
    });
  }
});
