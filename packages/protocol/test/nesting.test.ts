import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_NESTING_DEPTH } from '../src/gen/constants.gen.js';
import { exceedsNestingDepth, readTopLevel, scanNesting } from '../src/nesting.js';

/** The nesting depth of a parsed JSON value, by its definition: `{}` and `[]` are 1 deep. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === 'object' && value !== null)
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

/** Strings that look like structure: brackets, quotes and backslashes a scanner could trip over. */
const tricky = fc.string({
  unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', ' ', '\u00e9'),
});

/** A value nested exactly `depth` deep, alternating objects and arrays, with tricky strings. */
function nested(depth: number): fc.Arbitrary<unknown> {
  if (depth === 0) return fc.oneof(tricky, fc.integer(), fc.constant(null));
  return fc
    .tuple(nested(depth - 1), tricky, fc.boolean())
    .map(([inner, key, isArray]) => (isArray ? [key, inner] : { [key]: inner, k: key }));
}

const anyDepth = fc.integer({ min: 0, max: MAX_NESTING_DEPTH + 3 }).chain(nested);

describe('scanNesting', () => {
  test('finds the nesting depth of any JSON text, brackets inside strings not counted', () => {
    fc.assert(
      fc.property(anyDepth, (value) => {
        expect(scanNesting(JSON.stringify(value)).depth).toBe(depthOf(value));
      }),
      { numRuns: 300 },
    );
  });

  test('counts what the definition says on text that is not JSON', () => {
    expect(scanNesting('[[[').depth).toBe(3);
    expect(scanNesting(']]][[').depth).toBe(2);
    expect(scanNesting('"[[[').depth).toBe(0);
    expect(scanNesting('"\\"[[["[').depth).toBe(1);
    expect(scanNesting('"\\\\"[[').depth).toBe(2);
    expect(scanNesting('{"a":[1,2]}').innerContainers).toEqual([[5, 10]]);
    expect(scanNesting('{"a":[1,').innerContainers).toEqual([[5, -1]]);
  });
});

describe('exceedsNestingDepth', () => {
  test('agrees with the scan for JSON texts and for any text', () => {
    const texts = fc.oneof(
      anyDepth.map((value) => JSON.stringify(value)),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', 'x'), maxLength: 200 }),
    );
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 8 }), (text, limit) => {
        expect(exceedsNestingDepth(text, limit)).toBe(scanNesting(text).depth > limit);
      }),
      { numRuns: 500 },
    );
  });

  test('takes the limit of the protocol by default', () => {
    const at = `${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`;
    expect(exceedsNestingDepth(at)).toBe(false);
    expect(exceedsNestingDepth(`[${at}]`)).toBe(true);
  });
});

describe('readTopLevel', () => {
  test('reads the top-level members of a line, its deep members replaced by null', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(readTopLevel(`{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":${deep}}}`)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      method: 'm',
      params: null,
    });
    expect(readTopLevel(`{"params":${deep},"\\u0069d":"x","method":"m"}`)).toEqual({
      params: null,
      id: 'x',
      method: 'm',
    });
  });

  test('reads nothing from a line whose top level is not JSON', () => {
    expect(readTopLevel(`{"id":1,"method":"m","params":${'['.repeat(100)}`)).toBeUndefined();
    expect(readTopLevel(`{"id":1,"method":"m","params":[[1 2]]`)).toBeUndefined();
    expect(readTopLevel(`{"id":1,"method":"m"} [[[]]]`)).toBeUndefined();
  });
});
