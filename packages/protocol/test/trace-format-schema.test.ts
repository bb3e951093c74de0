// The trace format's one schema (trace-format.schema.json) holds what the recorder writes: every
// golden vector's bytes, recorded in both directions and cut short by the end, give records that
// validate; records that break the format do not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { describe, expect, test } from 'vitest';
import { TraceRecorder } from '../src/index.js';
import type { TraceDirection } from '../src/index.js';
import { VECTORS_ROOT } from './helpers/vectors.js';

const Ajv = AjvModule.default;
const schema = JSON.parse(
  readFileSync(new URL('../trace-format.schema.json', import.meta.url), 'utf8'),
) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function wireFiles(folder: string): string[] {
  const dir = join(VECTORS_ROOT, folder);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ndjson') && !name.endsWith('.expect.ndjson'))
    .map((name) => join(dir, name));
}

function recordBytes(bytes: Buffer, dir: TraceDirection, maxFrameBytes?: number): unknown[] {
  const lines: string[] = [];
  const recorder = new TraceRecorder({
    write: (line) => lines.push(line),
    recorder: 'test',
    command: ['runtime', '--flag'],
    headBytes: 16,
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
  });
  recorder.push(dir, bytes);
  recorder.finish({ exitCode: 0, signal: null });
  return lines.map((line) => JSON.parse(line) as unknown);
}

describe('the trace format schema', () => {
  const files = ['framing/read', 'messages', 'invalid', 'open-unions'].flatMap(wireFiles);

  test.each(['clientToServer', 'serverToClient'] as const)(
    'holds every record of every vector recorded %s',
    (dir) => {
      expect(files.length).toBeGreaterThan(100);
      let records = 0;
      for (const file of files) {
        for (const record of recordBytes(readFileSync(file), dir, 64)) {
          records += 1;
          expect(
            validate(record) ? [] : validate.errors,
            `${file}: ${JSON.stringify(record)}`,
          ).toEqual([]);
        }
      }
      expect(records).toBeGreaterThan(files.length * 3);
    },
  );

  test.each([
    [
      'a header of another format',
      {
        type: 'header',
        format: 'other',
        version: 1,
        protocolVersion: '1',
        startedAt: 0,
        recorder: 'x',
        maxFrameBytes: 1,
        headBytes: 0,
      },
    ],
    [
      'a frame with both json and text',
      {
        type: 'frame',
        seq: 0,
        dir: 'clientToServer',
        t: 0,
        line: 1,
        bytes: 2,
        json: {},
        text: '{}',
      },
    ],
    [
      'a frame with no content',
      { type: 'frame', seq: 0, dir: 'clientToServer', t: 0, line: 1, bytes: 2 },
    ],
    ['an exit without its counts', { type: 'exit', t: 1, exitCode: 0, signal: null, findings: 0 }],
    ['an unknown direction', { type: 'end-of-stream', t: 1, dir: 'sideways' }],
  ])('refuses %s', (_name, record) => {
    expect(validate(record)).toBe(false);
  });
});
