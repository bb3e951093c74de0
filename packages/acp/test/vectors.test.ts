// protocols/acp/test-vectors: each payload through the generated validator of its method, with the
// verdict, the violations in order, and the value lenient decoding leaves.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METHOD_VALIDATORS, toViolations } from '../src/index.js';
import type { MethodName } from '../src/index.js';

const DIR = new URL('../../../protocols/acp/test-vectors/', import.meta.url);

interface VerdictCase {
  readonly description: string;
  readonly method: MethodName;
  readonly payload: 'params' | 'result';
  readonly value: unknown;
  readonly valid: boolean;
  readonly violations: readonly { pointer: string; message: string }[];
  readonly decoded?: unknown;
}

const cases = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => {
    const vector = JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as VerdictCase;
    return { name: name.replace(/\.json$/, ''), ...vector };
  });

describe('ACP verdict vectors', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(15));

  it.each(cases)('$name', (vector) => {
    const validate = METHOD_VALIDATORS[vector.method][vector.payload];
    if (!validate) throw new Error(`${vector.method} has no ${vector.payload}`);
    const value = structuredClone(vector.value);
    expect(validate(value)).toBe(vector.valid);
    expect(vector.valid ? [] : toViolations(validate.errors ?? [])).toEqual(vector.violations);
    expect(value).toEqual(vector.decoded ?? vector.value);
  });
});
