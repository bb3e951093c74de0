// The shared golden vectors (test-vectors/, format in its README), run through the real
// JsonRpcLineTransport over in-memory streams and through the generated peers. Test names are
// the case's path, so a failure names the file to open.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateProtocolFrame } from '../src/gen/validators.gen.js';
import {
  checkExchangeFrames,
  readEnvelopes,
  runAgainstClientEnd,
  runAgainstServerEnd,
} from './helpers/vector-exchanges.js';
import type { ExchangeExpectation } from './helpers/vector-exchanges.js';
import { chunkings, runReadCase, withoutJsonrpc, writeLines } from './helpers/vector-framing.js';
import type { ReadExpectation } from './helpers/vector-framing.js';
import {
  deliverToClientEnd,
  deliverToServerEnd,
  readFrames,
  refuseThroughBinding,
  sendFromServerEnd,
} from './helpers/vector-frames.js';
import type { FrameLine } from './helpers/vector-frames.js';
import {
  frameDefinition,
  isJsonObject,
  listCases,
  pointerSet,
  readJson,
  relativePointers,
  SUITES,
  validateWithBundle,
} from './helpers/vectors.js';
import type { IdlMethod, Suite } from './helpers/vectors.js';

/**
 * Cases the current code fails, each with the bug it shows. The vector is the spec: the entry
 * goes when the bug is fixed (`it.fails` then reports the fix, so the list cannot go stale).
 */
const KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([]);

function suiteAt(folder: string): Suite {
  const found = SUITES.find((s) => s.folder === folder);
  if (!found) throw new Error(`no suite ${folder}`);
  return found;
}

/** `it`, or `it.fails` for a known failure. */
function vectorTest(name: string, body: () => Promise<void> | void): void {
  // The reason stays in KNOWN_FAILURES; the test id stays the case's path.
  if (KNOWN_FAILURES.has(name)) it.fails(`${name} [known failure]`, body);
  else it(name, body);
}

describe('framing/read', () => {
  for (const vector of listCases(suiteAt('framing/read'))) {
    const bytes = readFileSync(vector.wirePath);
    const expectation = readJson<ReadExpectation>(vector.expectPath);
    const expected = expectation.messages.map(withoutJsonrpc);
    const isInbound = (m: object): boolean => 'method' in m;
    for (const [mode, chunks] of chunkings(bytes, expectation.splitAt)) {
      vectorTest(`${vector.id} [${mode}]`, async () => {
        const seen = await runReadCase(bytes, expectation, chunks);
        expect(seen.reports).toStrictEqual(expectation.reports);
        expect(seen.inbound).toStrictEqual(expected.filter(isInbound));
        expect(seen.responses).toStrictEqual(expected.filter((m) => !isInbound(m)));
        if (mode === 'fed byte by byte') expect(seen.all).toStrictEqual(expected);
        const requests = expected.filter((m) => 'id' in m && 'method' in m);
        const isError = (m: unknown): boolean => isJsonObject(m) && 'error' in m;
        expect(seen.answers.filter((m) => !isError(m))).toStrictEqual(
          requests.map(({ id }) => ({ jsonrpc: '2.0', id, result: null })),
        );
        expect(seen.answers.filter(isError)).toStrictEqual(
          (expectation.refusals ?? []).map(({ id, code, message }) => ({
            jsonrpc: '2.0',
            id,
            error: { code, message },
          })),
        );
      });
    }
  }
});

describe('framing/write', () => {
  for (const vector of listCases(suiteAt('framing/write'))) {
    vectorTest(vector.id, async () => {
      const { write } = readJson<{ description: string; write: object[] }>(vector.wirePath);
      const expected = readFileSync(vector.expectPath);
      const expectedLines = expected.toString('utf8').split('\n');
      expect(expectedLines.pop()).toBe('');
      expect(expectedLines.map((l) => JSON.parse(l) as unknown)).toStrictEqual(write);
      const actual = await writeLines(write);
      expect(actual.toString('utf8')).toBe(expected.toString('utf8'));
      expect(actual.equals(expected)).toBe(true);
    });
  }
});

/** Every line is a valid frame, for the generated validators and for ajv alike, and round-trips. */
function expectValidFrames(lines: readonly FrameLine[]): void {
  for (const { raw, frame } of lines) {
    const isValid = validateProtocolFrame(frame);
    expect(isValid ? [] : validateProtocolFrame.errors, raw).toStrictEqual([]);
    const verdict = validateWithBundle(frame);
    expect(verdict.isValid ? [] : verdict.errors, raw).toStrictEqual([]);
    expect(JSON.parse(JSON.stringify(frame)), raw).toStrictEqual(frame);
  }
}

function expectFramesOf(lines: readonly FrameLine[], method: IdlMethod): void {
  const requestIds = lines.filter((l) => l.kind === 'request').map((l) => l.frame['id']);
  for (const { raw, frame, kind } of lines) {
    if (kind === 'response')
      expect(requestIds, `${raw} answers a request of the file`).toContainEqual(frame['id']);
    else expect(frame['method'], raw).toBe(method.method);
  }
}

function describeDelivered(folder: string): void {
  describe(folder, () => {
    for (const vector of listCases(suiteAt(folder))) {
      const lines = readFrames(vector.wirePath);
      vectorTest(`${vector.id} [valid frames]`, () => {
        expect(readJson(vector.expectPath)).toMatchObject({ outcome: 'delivered' });
        expectValidFrames(lines);
        if (vector.method) expectFramesOf(lines, vector.method);
      });
      vectorTest(`${vector.id} [server end]`, async () => {
        expect(await deliverToServerEnd(lines)).toStrictEqual([]);
        expect(await sendFromServerEnd(lines)).toStrictEqual([]);
      });
      vectorTest(`${vector.id} [client end]`, async () => {
        expect(await deliverToClientEnd(lines)).toStrictEqual([]);
      });
    }
  });
}

describeDelivered('messages');
describeDelivered('open-unions');

interface InvalidExpectation {
  readonly description: string;
  readonly outcome: 'invalid-params' | 'dropped' | 'protocol-error';
  readonly pointers: readonly string[];
}

const OUTCOME_OF_KIND = {
  request: 'invalid-params',
  notification: 'dropped',
  response: 'protocol-error',
} as const;

describe('invalid', () => {
  for (const vector of listCases(suiteAt('invalid'))) {
    const expectation = readJson<InvalidExpectation>(vector.expectPath);
    const lines = readFrames(vector.wirePath);
    const method = vector.method as IdlMethod;
    vectorTest(`${vector.id} [bundle]`, () => {
      expect(lines).toHaveLength(1);
      const [line] = lines as [FrameLine];
      expect(expectation.outcome).toBe(OUTCOME_OF_KIND[line.kind]);
      expect(pointerSet(expectation.pointers)).toHaveLength(expectation.pointers.length);
      const verdict = validateWithBundle(line.frame, frameDefinition(method, line.kind));
      expect(verdict.isValid).toBe(false);
      const member = line.kind === 'response' ? 'result' : 'params';
      const pointers = pointerSet(relativePointers(verdict.pointers, member));
      if (verdict.isAnyOfInvolved)
        expect(pointers).toEqual(expect.arrayContaining([...expectation.pointers]));
      else expect(pointers).toStrictEqual(pointerSet(expectation.pointers));
    });
    vectorTest(`${vector.id} [binding]`, async () => {
      const [line] = lines as [FrameLine];
      const refusal = await refuseThroughBinding(line, method);
      expect(refusal.failures).toStrictEqual([]);
      expect(pointerSet(refusal.pointers ?? [])).toStrictEqual(pointerSet(expectation.pointers));
    });
  }
});

describe('exchanges', () => {
  for (const vector of listCases(suiteAt('exchanges'))) {
    const expectation = readJson<ExchangeExpectation>(vector.expectPath);
    const envelopes = readEnvelopes(vector.wirePath);
    vectorTest(`${vector.id} [valid frames]`, () => {
      expect(checkExchangeFrames(envelopes, expectation.serverProtocolVersion)).toStrictEqual([]);
    });
    vectorTest(`${vector.id} [client end]`, async () => {
      expect(await runAgainstClientEnd(envelopes)).toStrictEqual([]);
    });
    vectorTest(`${vector.id} [server end]`, async () => {
      expect(await runAgainstServerEnd(envelopes, expectation)).toStrictEqual([]);
    });
  }
});
