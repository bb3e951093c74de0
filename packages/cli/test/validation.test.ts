// The recorder's verdicts are the generated validators' verdicts: every frame of the valid, invalid
// and open-union vectors goes through dsh-sdk trace (requests from the client, responses and
// notifications from a scripted runtime), and each recorded finding must list exactly the
// violations the method's generated validator reports for the same value, in the same order.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { METHOD_VALIDATORS, METHODS, toViolations } from '@dsh-sdk/protocol';
import type { MethodInfo, TraceFrame, Violation } from '@dsh-sdk/protocol';
import { beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES, framesOf, readTraceFile, runCli, tempDir, VECTORS } from './helpers/cli.js';

type Json = { [key: string]: unknown };

interface VectorFrame {
  /** `folder/case.ndjson:line`. */
  readonly where: string;
  readonly frame: Json;
  /** The line sent: the vector's own text with the id renamed, so a number that JSON.parse cannot hold (`1e400`) goes as written. */
  readonly text: string;
  readonly method: MethodInfo;
  readonly side: 'client' | 'server';
  /** For invalid/ cases: the pointers the vector expects. */
  readonly pointers?: readonly string[];
}

const METHOD_BY_FOLDER = new Map(METHODS.map((m) => [m.kebabName, m]));
const METHOD_BY_WIRE = new Map<string, MethodInfo>(METHODS.map((m) => [m.wireName, m]));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ndjson')
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Every frame of the vectors, with ids renumbered so the cases do not collide in one run: each
 * request gets a fresh id of the same type, its responses follow it.
 */
function collectFrames(): { frames: VectorFrame[]; setup: Json[] } {
  const frames: VectorFrame[] = [];
  const setup: Json[] = [];
  let next = 1000;
  for (const folder of ['messages', 'invalid', 'open-unions']) {
    for (const path of files(join(VECTORS, folder))) {
      const name = relative(VECTORS, path);
      const expectation = JSON.parse(
        readFileSync(path.replace(/\.ndjson$/, '.expect.json'), 'utf8'),
      ) as Json;
      const folderMethod = METHOD_BY_FOLDER.get(name.split('/')[1] ?? '');
      const renamed = new Map<unknown, { id: number | string; method: MethodInfo | undefined }>();
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .forEach((text, i) => {
          const frame = JSON.parse(text) as Json;
          const originalId = frame['id'];
          const fresh = (id: unknown): number | string =>
            typeof id === 'string' ? `v${next++}` : next++;
          let method: MethodInfo | undefined;
          if (typeof frame['method'] === 'string') {
            method = METHOD_BY_WIRE.get(frame['method']);
            if (frame['id'] !== undefined) {
              const id = fresh(frame['id']);
              renamed.set(frame['id'], { id, method });
              frame['id'] = id;
            }
          } else {
            let request = renamed.get(frame['id']);
            if (!request) {
              // A lone response (invalid/): the client sends a request for it first.
              request = { id: fresh(frame['id']), method: folderMethod };
              renamed.set(frame['id'], request);
              setup.push({ jsonrpc: '2.0', id: request.id, method: folderMethod?.wireName });
            }
            method = request.method;
            frame['id'] = request.id;
          }
          if (!method) throw new Error(`${name}: no method for line ${i + 1}`);
          const side =
            typeof frame['method'] === 'string' && frame['id'] !== undefined ? 'client' : 'server';
          frames.push({
            where: `${name}:${i + 1}`,
            frame,
            text: withId(text, originalId, frame['id']),
            method,
            side,
            ...(Array.isArray(expectation['pointers'])
              ? { pointers: expectation['pointers'] as string[] }
              : {}),
          });
        });
    }
  }
  return { frames, setup };
}

/** `text` with its top-level id `from` replaced by `to`, checked by parsing it back. */
function withId(text: string, from: unknown, to: unknown): string {
  if (from === undefined) return text;
  const renamed = text.replace(`"id":${JSON.stringify(from)}`, `"id":${JSON.stringify(to)}`);
  if ((JSON.parse(renamed) as Json)['id'] !== to)
    throw new Error(`cannot rename the id in ${text}`);
  return renamed;
}

/** What the generated validator says of the value the frame carries. */
function validatorVerdict(
  vector: VectorFrame,
): { reason: string; violations: Violation[] } | undefined {
  const { frame, method } = vector;
  const validators = METHOD_VALIDATORS[method.wireName];
  if (frame['method'] !== undefined) {
    if (frame['params'] === undefined && method.paramsType === null) return undefined;
    const reason = method.kind === 'request' ? 'invalid-params' : 'invalid-notification-params';
    return validators.params(frame['params'])
      ? undefined
      : { reason, violations: toViolations(validators.params.errors) };
  }
  if (frame['result'] === undefined || validators.result === null) return undefined;
  return validators.result(frame['result'])
    ? undefined
    : { reason: 'invalid-result', violations: toViolations(validators.result.errors) };
}

const { frames: VECTOR_FRAMES, setup: SETUP } = collectFrames();
let recorded: Map<string, TraceFrame>;

beforeAll(async () => {
  const dir = tempDir();
  const serverFrames = VECTOR_FRAMES.filter((v) => v.side === 'server');
  const clientLines = [
    ...SETUP.map((frame) => JSON.stringify(frame)),
    ...VECTOR_FRAMES.filter((v) => v.side === 'client').map((v) => v.text),
  ];
  const script = join(dir, 'server.ndjson');
  writeFileSync(script, serverFrames.map((v) => `${v.text}\n`).join(''));
  const trace = join(dir, 'vectors.trace.ndjson');
  const run = await runCli(
    [
      'trace',
      '--quiet',
      '--out',
      trace,
      '--',
      process.execPath,
      join(FIXTURES, 'scripted-runtime.mjs'),
      script,
    ],
    { chunks: [Buffer.from(clientLines.map((line) => `${line}\n`).join(''))] },
  );
  expect(run.code).toBe(0);
  // The recorded frames, by the vector frame they carry (same direction, same JSON).
  const frames = framesOf(readTraceFile(trace));
  const key = (side: string, json: unknown): string => `${side}\u0000${JSON.stringify(json)}`;
  recorded = new Map(
    frames.map((f) => [key(f.dir === 'clientToServer' ? 'client' : 'server', f.json), f]),
  );
  for (const vector of VECTOR_FRAMES) {
    const frame = recorded.get(key(vector.side, vector.frame));
    if (frame) recorded.set(vector.where, frame);
  }
});

describe("trace findings equal the generated validators' verdicts", () => {
  test('the vectors hold valid and invalid frames of every method', () => {
    const invalid = VECTOR_FRAMES.filter((v) => validatorVerdict(v) !== undefined);
    expect(new Set(invalid.map((v) => v.method.wireName))).toEqual(
      new Set(METHODS.map((m) => m.wireName)),
    );
    expect(VECTOR_FRAMES.length - invalid.length).toBeGreaterThan(50);
  });

  test.each(VECTOR_FRAMES.map((v) => [v.where, v] as const))('%s', (_where, vector) => {
    const frame = recorded.get(vector.where);
    expect(frame).toBeDefined();
    const verdict = validatorVerdict(vector);
    const schemaFindings = (frame!.findings ?? []).filter((f) => f.violations !== undefined);
    expect(schemaFindings.map((f) => ({ reason: f.reason, violations: f.violations }))).toEqual(
      verdict === undefined ? [] : [verdict],
    );
    // Nothing else is wrong with a vector frame: right method, direction, kind and pairing.
    expect((frame!.findings ?? []).filter((f) => f.violations === undefined)).toEqual([]);
    if (vector.pointers) {
      const pointers = new Set(verdict?.violations.map((v) => v.pointer));
      expect(pointers).toEqual(new Set(vector.pointers));
    }
  });
});
