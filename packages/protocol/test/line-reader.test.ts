import { describe, expect, test } from 'vitest';
import { LineReader } from '../src/line-reader.js';
import type { LineRejectionReason } from '../src/line-reader.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../src/gen/constants.gen.js';
import { gc } from './helpers/gc.js';
import { budgetMs } from './helpers/time-budget.js';

type Event =
  | { kind: 'line'; text: string; line: number; bytes: number }
  | { kind: 'rejected'; reason: LineRejectionReason; line: number; bytes: number };

function createReader(maxFrameBytes?: number): { reader: LineReader; events: Event[] } {
  const events: Event[] = [];
  const reader = new LineReader(
    {
      acceptLine: (text, line, bytes) => events.push({ kind: 'line', text, line, bytes }),
      rejectLine: (reason, line, bytes) => events.push({ kind: 'rejected', reason, line, bytes }),
    },
    maxFrameBytes === undefined ? {} : { maxFrameBytes },
  );
  return { reader, events };
}

function feed(reader: LineReader, ...chunks: (string | Buffer | number[])[]): void {
  for (const chunk of chunks) {
    reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  }
}

function texts(events: Event[]): string[] {
  return events.flatMap((event) => (event.kind === 'line' ? [event.text] : []));
}

describe('LineReader', () => {
  test('delivers every line of a chunk that holds several', () => {
    const { reader, events } = createReader();
    feed(reader, 'one\ntwo\nthree\n');
    expect(events).toEqual([
      { kind: 'line', text: 'one', line: 1, bytes: 3 },
      { kind: 'line', text: 'two', line: 2, bytes: 3 },
      { kind: 'line', text: 'three', line: 3, bytes: 5 },
    ]);
  });

  test('joins a line delivered across several chunks', () => {
    const { reader, events } = createReader();
    feed(reader, '{"a"', ':1', '2}\n{"b":', '3}\n');
    expect(texts(events)).toEqual(['{"a":12}', '{"b":3}']);
  });

  test('waits for the newline before delivering anything', () => {
    const { reader, events } = createReader();
    feed(reader, 'no newline yet');
    expect(events).toEqual([]);
    feed(reader, '\n');
    expect(texts(events)).toEqual(['no newline yet']);
  });

  test('decodes a multi-byte character split at every possible chunk boundary', () => {
    const line = Buffer.from('{"text":"héllo 你好 🎉"}\n');
    for (let cut = 1; cut < line.length; cut += 1) {
      const { reader, events } = createReader();
      reader.push(line.subarray(0, cut));
      reader.push(line.subarray(cut));
      expect(texts(events)).toEqual(['{"text":"héllo 你好 🎉"}']);
    }
  });

  test('decodes a line delivered one byte at a time', () => {
    const { reader, events } = createReader();
    for (const byte of Buffer.from('🎉a\n£\n')) reader.push(Buffer.from([byte]));
    expect(texts(events)).toEqual(['🎉a', '£']);
  });

  test('strips one trailing carriage return and only one', () => {
    const { reader, events } = createReader();
    feed(reader, 'a\r\n', 'b\r\r\n', 'c\r', '\n');
    expect(texts(events)).toEqual(['a', 'b\r', 'c']);
  });

  test('does not end a line at a bare carriage return', () => {
    const { reader, events } = createReader();
    feed(reader, 'a\rb\n');
    expect(texts(events)).toEqual(['a\rb']);
  });

  test('skips blank lines silently but counts them in line numbers', () => {
    const { reader, events } = createReader();
    feed(reader, '\n\r\nx\n\n', '\r', '\ny\n');
    expect(events).toEqual([
      { kind: 'line', text: 'x', line: 3, bytes: 1 },
      { kind: 'line', text: 'y', line: 6, bytes: 1 },
    ]);
  });

  test('counts the bytes of a line without its newline but with its carriage return', () => {
    const { reader, events } = createReader();
    feed(reader, 'é\r\n');
    expect(events).toEqual([{ kind: 'line', text: 'é', line: 1, bytes: 3 }]);
  });

  test.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['an invalid byte', [0xff]],
    ['an overlong encoding', [0xc0, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut short by the newline', [0x61, 0xe2, 0x82]],
  ])('reports a line holding %s as invalid-utf8 and reads on', (_name, bytes) => {
    const { reader, events } = createReader();
    feed(reader, 'before\n', [...bytes, 0x0a], 'after\n');
    expect(events).toEqual([
      { kind: 'line', text: 'before', line: 1, bytes: 6 },
      { kind: 'rejected', reason: 'invalid-utf8', line: 2, bytes: bytes.length },
      { kind: 'line', text: 'after', line: 3, bytes: 5 },
    ]);
  });

  test('accepts a line that legitimately holds U+FFFD', () => {
    const { reader, events } = createReader();
    feed(reader, '"\uFFFD"\n');
    expect(texts(events)).toEqual(['"\uFFFD"']);
  });

  test('reports invalid UTF-8 in a line that was split across chunks', () => {
    const { reader, events } = createReader();
    feed(reader, [0x61, 0xe2], [0x28, 0xa1, 0x0a]);
    expect(events).toEqual([{ kind: 'rejected', reason: 'invalid-utf8', line: 1, bytes: 4 }]);
  });

  test('accepts a line of exactly the frame limit', () => {
    const { reader, events } = createReader(8);
    feed(reader, '12345678\n');
    expect(texts(events)).toEqual(['12345678']);
  });

  test('drops a line one byte longer than the frame limit and reads on', () => {
    const { reader, events } = createReader(8);
    feed(reader, '123456789\nok\n');
    expect(events).toEqual([
      { kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: 9 },
      { kind: 'line', text: 'ok', line: 2, bytes: 2 },
    ]);
  });

  test('counts a trailing carriage return against the frame limit', () => {
    const { reader, events } = createReader(8);
    feed(reader, '12345678\r\n');
    expect(events).toEqual([{ kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: 9 }]);
  });

  test('drops an overlong line spread over many chunks once, with its full size', () => {
    const { reader, events } = createReader(10);
    feed(reader, 'ok\n12345', '67890', 'abcde', 'fgh', 'ij\nnext\n');
    expect(events).toEqual([
      { kind: 'line', text: 'ok', line: 1, bytes: 2 },
      { kind: 'rejected', reason: 'frame-too-large', line: 2, bytes: 20 },
      { kind: 'line', text: 'next', line: 3, bytes: 4 },
    ]);
  });

  test('drops a pending line that passes the limit only in the chunk holding its newline', () => {
    const { reader, events } = createReader(10);
    feed(reader, '123456', '7890a\nb\n');
    expect(events).toEqual([
      { kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: 11 },
      { kind: 'line', text: 'b', line: 2, bytes: 1 },
    ]);
  });

  test('uses the protocol default frame limit when none is given', () => {
    const { reader, events } = createReader();
    const big = Buffer.alloc(DEFAULT_MAX_FRAME_BYTES + 1, 0x61);
    reader.push(big);
    reader.push(Buffer.from('\n'));
    expect(events).toEqual([
      { kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: DEFAULT_MAX_FRAME_BYTES + 1 },
    ]);
  });

  test('reports bytes after the last newline as a truncated frame at the end', () => {
    const { reader, events } = createReader();
    feed(reader, 'a\n\n{"id":1,', '"res');
    reader.end();
    expect(events).toEqual([
      { kind: 'line', text: 'a', line: 1, bytes: 1 },
      { kind: 'rejected', reason: 'truncated-frame', line: 3, bytes: 12 },
    ]);
  });

  test('reports nothing at the end when the input ended on a newline', () => {
    const { reader, events } = createReader();
    feed(reader, 'a\n');
    reader.end();
    reader.end();
    expect(events).toEqual([{ kind: 'line', text: 'a', line: 1, bytes: 1 }]);
  });

  test('reports an overlong unterminated line at the end as too large', () => {
    const { reader, events } = createReader(4);
    feed(reader, 'abc', 'defgh');
    reader.end();
    expect(events).toEqual([{ kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: 8 }]);
  });

  test('refuses a frame limit that is not a positive integer', () => {
    expect(() => createReader(0)).toThrow(RangeError);
    expect(() => createReader(1.5)).toThrow(RangeError);
    expect(() => createReader(Number.NaN)).toThrow(RangeError);
  });

  test('reads a 16 MiB line delivered in 4 KiB chunks in linear time', () => {
    const { reader, events } = createReader();
    const body = Buffer.alloc(16 * 1024 * 1024, 0x78);
    const chunkSize = 4096;
    const started = performance.now();
    for (let offset = 0; offset < body.length; offset += chunkSize) {
      // Copies, so that no chunk shares memory with another.
      reader.push(Buffer.from(body.subarray(offset, offset + chunkSize)));
    }
    reader.push(Buffer.from('\n'));
    const elapsedMs = performance.now() - started;
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.kind === 'line' && event.text.length).toBe(body.length);
    // Re-joining or re-scanning the pending bytes per chunk would copy ~32 GiB here.
    expect(elapsedMs).toBeLessThan(budgetMs(2000));
  });

  test('keeps memory bounded while it discards an overlong line', () => {
    const { reader, events } = createReader(1024 * 1024);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    for (let i = 0; i < 512; i += 1) {
      reader.push(Buffer.alloc(256 * 1024, 0x78)); // 128 MiB in all, never terminated
      if (i % 64 === 63) {
        gc();
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }
    }
    reader.push(Buffer.from('\nok\n'));
    // Holding the chunks would keep 128 MiB; freeing external memory can lag a little behind gc().
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    expect(events).toEqual([
      { kind: 'rejected', reason: 'frame-too-large', line: 1, bytes: 512 * 256 * 1024 },
      { kind: 'line', text: 'ok', line: 2, bytes: 2 },
    ]);
  });
});

describe('LineReader rejectedHeadBytes', () => {
  function headsOf(maxFrameBytes: number, headBytes: number, chunks: Buffer[], end = false) {
    const heads: { reason: LineRejectionReason; head: string }[] = [];
    const reader = new LineReader(
      {
        acceptLine: () => {},
        rejectLine: (reason, _line, _bytes, head) =>
          heads.push({ reason, head: head.toString('latin1') }),
      },
      { maxFrameBytes, rejectedHeadBytes: headBytes },
    );
    for (const chunk of chunks) reader.push(chunk);
    if (end) reader.end();
    return heads;
  }

  test('gives the first bytes of an overlong line, whole or in pieces, and of a line cut short', () => {
    const long = Buffer.from(`abcdefghij${'z'.repeat(50)}\n`);
    expect(headsOf(20, 4, [long])).toEqual([{ reason: 'frame-too-large', head: 'abcd' }]);
    const pieces = [
      long.subarray(0, 2),
      long.subarray(2, 3),
      long.subarray(3, 30),
      long.subarray(30),
    ];
    expect(headsOf(20, 4, pieces)).toEqual([{ reason: 'frame-too-large', head: 'abcd' }]);
    expect(headsOf(20, 4, [Buffer.from('ab'), Buffer.from('cdefg')], true)).toEqual([
      { reason: 'truncated-frame', head: 'abcd' },
    ]);
    expect(headsOf(100, 8, [Buffer.from([0x61, 0xff, 0x0a])])).toEqual([
      { reason: 'invalid-utf8', head: 'a\xff' },
    ]);
  });

  test('gives an empty head by default', () => {
    expect(headsOf(4, 0, [Buffer.from('abcdefgh\n')])).toEqual([
      { reason: 'frame-too-large', head: '' },
    ]);
  });
});
