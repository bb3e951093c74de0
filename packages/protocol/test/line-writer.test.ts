import { PassThrough, Writable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { describe, expect, test, vi } from 'vitest';
import { LineWriter } from '../src/line-writer.js';
import { TransportClosedError } from '../src/errors.js';
import { GatedWritable, isSettled } from './helpers/gated-writable.js';

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

describe('LineWriter', () => {
  test('writes each message as one compact JSON line', async () => {
    const output = new PassThrough();
    const read = collect(output);
    const writer = new LineWriter(output, () => {});
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'm', params: { a: [1, 2], b: 'x\ny' } });
    expect(read()).toBe('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2],"b":"x\\ny"}}\n');
  });

  test('escapes lone surrogates so every line is valid UTF-8', async () => {
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const writer = new LineWriter(output, () => {});
    await writer.write({ text: 'a\ud800b\udfffc\ud83d\ude00' });
    const bytes = Buffer.concat(chunks);
    expect(bytes.toString('utf8')).toBe('{"text":"a\\ud800b\\udfffc😀"}\n');
    expect(isUtf8(bytes)).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ text: 'a\ud800b\udfffc\ud83d\ude00' });
  });

  test('keeps the order of writes', async () => {
    const output = new PassThrough();
    const read = collect(output);
    const writer = new LineWriter(output, () => {});
    await Promise.all(Array.from({ length: 100 }, (_, seq) => writer.write({ seq })));
    const seqs = read()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: 100 }, (_, seq) => seq));
  });

  test('waits for drain before handing the stream the next line', async () => {
    const output = new GatedWritable(1);
    const writeSpy = vi.spyOn(output, 'write');
    const writer = new LineWriter(output, () => {});
    const first = writer.write({ seq: 1 });
    const second = writer.write({ seq: 2 });
    const third = writer.write({ seq: 3 });
    expect(writeSpy).toHaveBeenCalledTimes(1);
    expect(await isSettled(first)).toBe(false);
    expect(await isSettled(second)).toBe(false);

    output.release(); // the first line is flushed: 'drain', the second line goes out
    await first;
    expect(writeSpy).toHaveBeenCalledTimes(2);
    expect(await isSettled(second)).toBe(false);
    expect(await isSettled(third)).toBe(false);

    output.release();
    await second;
    output.release();
    await third;
    expect(output.received).toEqual(['{"seq":1}\n', '{"seq":2}\n', '{"seq":3}\n']);
  });

  test('resolves at once while the stream is below its high-water mark', async () => {
    const output = new GatedWritable(1024);
    const writer = new LineWriter(output, () => {});
    const write = writer.write({ seq: 1 });
    expect(await isSettled(write)).toBe(true);
  });

  test('rejects and reports once when a write fails with EPIPE', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const output = new Writable({
      // Like a pipe: the write is taken, and fails later when the peer is gone.
      write: (_chunk, _encoding, callback) => setImmediate(() => callback(epipe)),
    });
    const onFailure = vi.fn();
    const writer = new LineWriter(output, onFailure);
    writer.attach();
    await writer.write({ seq: 1 }); // the stream took the line; it fails afterwards
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(onFailure).toHaveBeenCalledTimes(1);
    const failure: unknown = onFailure.mock.calls[0]?.[0];
    expect(failure).toBeInstanceOf(TransportClosedError);
    expect(failure).toMatchObject({ reason: 'output-error', cause: epipe });
    await expect(writer.write({ seq: 2 })).rejects.toBe(failure);
  });

  test('rejects the write itself when the stream fails it at once', async () => {
    const output = new Writable({
      write: (_chunk, _encoding, callback) => callback(new Error('write EPIPE')),
    });
    const onFailure = vi.fn();
    const writer = new LineWriter(output, onFailure);
    await expect(writer.write({ seq: 1 })).rejects.toMatchObject({ reason: 'output-error' });
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  test('rejects the lines waiting for drain when the stream fails', async () => {
    const output = new GatedWritable(1);
    const onFailure = vi.fn();
    const writer = new LineWriter(output, onFailure);
    const blocked = writer.write({ seq: 1 });
    const queued = writer.write({ seq: 2 });
    output.destroy(new Error('boom'));
    await expect(blocked).rejects.toMatchObject({ reason: 'output-error' });
    await expect(queued).rejects.toMatchObject({ reason: 'output-error' });
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(output.received).toEqual(['{"seq":1}\n']);
  });

  test('rejects a write to a destroyed stream', async () => {
    const output = new PassThrough();
    output.destroy();
    const onFailure = vi.fn();
    const writer = new LineWriter(output, onFailure);
    await expect(writer.write({ seq: 1 })).rejects.toMatchObject({
      name: 'TransportClosedError',
      reason: 'output-error',
    });
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  test('rejects a write to an ended stream', async () => {
    const output = new PassThrough();
    output.resume();
    output.end();
    const writer = new LineWriter(output, () => {});
    await expect(writer.write({ seq: 1 })).rejects.toMatchObject({ reason: 'output-error' });
  });

  test('rejects the queued lines when the stream is ended while they wait', async () => {
    const output = new GatedWritable(1);
    const writer = new LineWriter(output, () => {});
    const blocked = writer.write({ seq: 1 });
    const queued = writer.write({ seq: 2 });
    output.end();
    output.release();
    await expect(blocked).resolves.toBeUndefined();
    await expect(queued).rejects.toMatchObject({ reason: 'output-error' });
  });

  test('rejects a message JSON cannot hold without failing the writer', async () => {
    const output = new PassThrough();
    const read = collect(output);
    const onFailure = vi.fn();
    const writer = new LineWriter(output, onFailure);
    await expect(writer.write({ big: 1n })).rejects.toBeInstanceOf(TypeError);
    await writer.write({ ok: true });
    expect(read()).toBe('{"ok":true}\n');
    expect(onFailure).not.toHaveBeenCalled();
  });

  test('rejects queued and later lines on dispose, and leaves the stream open', async () => {
    const output = new GatedWritable(1);
    const writer = new LineWriter(output, () => {});
    const blocked = writer.write({ seq: 1 });
    const queued = writer.write({ seq: 2 });
    const closed = new TransportClosedError('closed', 'bye');
    writer.dispose(closed);
    await expect(blocked).rejects.toBe(closed);
    await expect(queued).rejects.toBe(closed);
    await expect(writer.write({ seq: 3 })).rejects.toBe(closed);
    expect(output.destroyed).toBe(false);
    expect(output.writableEnded).toBe(false);
    expect(output.listenerCount('drain')).toBe(0);
  });

  test('takes a late error of its own writes after dispose instead of crashing', async () => {
    const output = new GatedWritable(1024);
    const writer = new LineWriter(output, () => {});
    await writer.write({ seq: 1 });
    writer.dispose(new TransportClosedError('closed', 'bye'));
    expect(output.listenerCount('error')).toBe(1);
    output.destroy(new Error('EPIPE after dispose'));
    await new Promise((resolve) => output.once('close', resolve));
    expect(output.listenerCount('error')).toBe(0);
  });

  test('adds no error listener on dispose when it never wrote', () => {
    const output = new PassThrough();
    const writer = new LineWriter(output, () => {});
    writer.attach();
    writer.dispose(new TransportClosedError('closed', 'bye'));
    expect(output.listenerCount('error')).toBe(0);
  });
});
