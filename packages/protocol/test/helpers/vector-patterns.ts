// Placeholders of exchanges (test-vectors/README.md): `{"$var": name}` binds on first sight and
// must be equal after; `{"$any": type}` accepts any value of a JSON type.
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject } from './vectors.js';

export type Bindings = ReadonlyMap<string, unknown>;

type Placeholder =
  { readonly kind: 'var'; readonly name: string } | { readonly kind: 'any'; readonly type: string };

const STAND_INS: Readonly<Record<string, unknown>> = {
  integer: 0,
  number: 0,
  string: 'any',
  boolean: false,
  object: {},
  array: [],
};

function asPlaceholder(value: unknown): Placeholder | undefined {
  if (!isJsonObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const [key] = keys;
  const operand = value[key as string];
  if (typeof operand !== 'string') return undefined;
  if (key === '$var') return { kind: 'var', name: operand };
  if (key === '$any') {
    if (!(operand in STAND_INS)) throw new Error(`vector: unknown $any type ${operand}`);
    return { kind: 'any', type: operand };
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    default:
      return typeof value === type;
  }
}

export type MatchResult =
  | { readonly isMatch: true; readonly bindings: Bindings }
  | { readonly isMatch: false; readonly reason: string };

/** Matches an actual value against a pattern; on success, returns the bindings grown by it. */
export function matchPattern(pattern: unknown, actual: unknown, bindings: Bindings): MatchResult {
  const grown = new Map(bindings);
  const reason = matchInto(pattern, actual, grown, '');
  return reason === undefined ? { isMatch: true, bindings: grown } : { isMatch: false, reason };
}

function matchInto(
  pattern: unknown,
  actual: unknown,
  bindings: Map<string, unknown>,
  at: string,
): string | undefined {
  const placeholder = asPlaceholder(pattern);
  if (placeholder?.kind === 'any') {
    return hasType(actual, placeholder.type)
      ? undefined
      : `${at || '/'}: not a ${placeholder.type}`;
  }
  if (placeholder?.kind === 'var') {
    if (!bindings.has(placeholder.name)) {
      bindings.set(placeholder.name, actual);
      return undefined;
    }
    const bound = bindings.get(placeholder.name);
    if (isDeepStrictEqual(bound, actual)) return undefined;
    return `${at || '/'}: $var ${placeholder.name} is ${JSON.stringify(bound)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual) || actual.length !== pattern.length) {
      return `${at || '/'}: expected an array of ${pattern.length}, got ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < pattern.length; i += 1) {
      const reason = matchInto(pattern[i], actual[i], bindings, `${at}/${i}`);
      if (reason) return reason;
    }
    return undefined;
  }
  if (isJsonObject(pattern)) {
    if (!isJsonObject(actual))
      return `${at || '/'}: expected an object, got ${JSON.stringify(actual)}`;
    const keys = Object.keys(pattern).sort();
    const actualKeys = Object.keys(actual).sort();
    if (!isDeepStrictEqual(keys, actualKeys)) {
      return `${at || '/'}: members ${JSON.stringify(actualKeys)}, expected ${JSON.stringify(keys)}`;
    }
    for (const key of keys) {
      const reason = matchInto(pattern[key], actual[key], bindings, `${at}/${key}`);
      if (reason) return reason;
    }
    return undefined;
  }
  if (isDeepStrictEqual(pattern, actual)) return undefined;
  return `${at || '/'}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`;
}

/**
 * The concrete value a scripted side sends for a pattern: bound `$var`s take their value, an
 * unbound one is bound to its own name, an `$any` becomes a stand-in of its type.
 */
export function resolvePattern(pattern: unknown, bindings: Map<string, unknown>): unknown {
  const placeholder = asPlaceholder(pattern);
  if (placeholder?.kind === 'any') return structuredClone(STAND_INS[placeholder.type]);
  if (placeholder?.kind === 'var') {
    if (!bindings.has(placeholder.name)) bindings.set(placeholder.name, placeholder.name);
    return bindings.get(placeholder.name);
  }
  if (Array.isArray(pattern)) return pattern.map((item) => resolvePattern(item, bindings));
  if (isJsonObject(pattern)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(pattern)) out[key] = resolvePattern(value, bindings);
    return out;
  }
  return pattern;
}
