// Matching a golden conversation's server message against what another runtime wrote. The
// vectors record the reference runtimes, so values that are the runtime's own are relaxed to
// their JSON type: a string the IDL does not fix (not a constant, an enum value or a known value,
// and not something the client sent), and any number inside a `session.event` (seq, time, turn).
// Within one group of server messages, equal relaxed strings must stay equal (a prompt's
// `messageId` and its receipt's message id). `$var` and `$any` work as in test-vectors/README.md.
import { schemaDefinitions } from '../idl-data.js';
import { isObject } from './server-line.js';
import type { JsonObject } from './server-line.js';

let vocabulary: Set<string> | undefined;

/** Every string value the IDL fixes: constants, enum values, known values of open enums. */
function idlStrings(): Set<string> {
  if (vocabulary) return vocabulary;
  vocabulary = new Set();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    if (typeof node['const'] === 'string') vocabulary!.add(node['const']);
    if (Array.isArray(node['enum']))
      for (const v of node['enum']) if (typeof v === 'string') vocabulary!.add(v);
    if (isObject(node['x-known-values']))
      for (const v of Object.keys(node['x-known-values'])) vocabulary!.add(v);
    for (const [key, value] of Object.entries(node)) if (key !== 'examples') walk(value);
  };
  walk(schemaDefinitions());
  return vocabulary;
}

export interface MatchScope {
  /** `$var` bindings of the whole conversation. */
  readonly vars: Map<string, unknown>;
  /** Strings the client sent, matched exactly. */
  readonly sent: ReadonlySet<string>;
  /** Relaxed strings of the current group: the first sight binds. */
  readonly literals: Map<string, unknown>;
}

const JSON_TYPE: Readonly<Record<string, (v: unknown) => boolean>> = {
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  object: (v) => isObject(v),
  array: (v) => Array.isArray(v),
};

/** Where `actual` differs from `expected` (a dotted path and why), or undefined when it matches. */
export function mismatch(
  expected: unknown,
  actual: unknown,
  scope: MatchScope,
  path = '',
  inEvent = false,
  exactKeys = false,
): string | undefined {
  if (isObject(expected) && typeof expected['$var'] === 'string') {
    const name = expected['$var'];
    if (!scope.vars.has(name)) {
      scope.vars.set(name, actual);
      return undefined;
    }
    return JSON.stringify(scope.vars.get(name)) === JSON.stringify(actual)
      ? undefined
      : `${path}: ${JSON.stringify(actual)} is not ${JSON.stringify(scope.vars.get(name))} (${name})`;
  }
  if (isObject(expected) && typeof expected['$any'] === 'string')
    return JSON_TYPE[expected['$any']]?.(actual)
      ? undefined
      : `${path}: ${JSON.stringify(actual)} is not any ${expected['$any']}`;
  if (typeof expected === 'string') return matchString(expected, actual, scope, path);
  if (typeof expected === 'number' && inEvent)
    return typeof actual === 'number'
      ? undefined
      : `${path}: ${JSON.stringify(actual)} is not a number`;
  if (Array.isArray(expected)) return matchArray(expected, actual, scope, path, inEvent);
  if (isObject(expected)) {
    if (!isObject(actual))
      return `${path}: ${JSON.stringify(actual)?.slice(0, 80)} is not an object`;
    if (exactKeys) {
      const extra = Object.keys(actual).filter((k) => !(k in expected));
      if (extra.length > 0) return `${path}: unexpected ${extra.join(', ')}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${path}.${key}: missing`;
      const problem = mismatch(
        value,
        actual[key],
        scope,
        `${path}.${key}`,
        inEvent || key === 'event',
      );
      if (problem) return problem;
    }
    return undefined;
  }
  return JSON.stringify(expected) === JSON.stringify(actual)
    ? undefined
    : `${path}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`;
}

function matchString(
  expected: string,
  actual: unknown,
  scope: MatchScope,
  path: string,
): string | undefined {
  if (scope.sent.has(expected) || idlStrings().has(expected))
    return actual === expected
      ? undefined
      : `${path}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`;
  if (typeof actual !== 'string') return `${path}: ${JSON.stringify(actual)} is not a string`;
  if (!scope.literals.has(expected)) {
    scope.literals.set(expected, actual);
    return undefined;
  }
  const bound = scope.literals.get(expected);
  return bound === actual
    ? undefined
    : `${path}: ${JSON.stringify(actual)} where the same value as ${JSON.stringify(bound)} was expected`;
}

/** Arrays keep their length, except an error's `data`, where every expected item must be among the actual ones. */
function matchArray(
  expected: unknown[],
  actual: unknown,
  scope: MatchScope,
  path: string,
  inEvent: boolean,
): string | undefined {
  if (!Array.isArray(actual))
    return `${path}: ${JSON.stringify(actual)?.slice(0, 80)} is not an array`;
  if (path.endsWith('.error.data'))
    return expected.every((item) =>
      actual.some(
        (a) =>
          mismatch(item, a, { ...scope, literals: new Map(scope.literals) }, path, inEvent) ===
          undefined,
      ),
    )
      ? undefined
      : `${path}: ${JSON.stringify(actual).slice(0, 160)} lacks ${JSON.stringify(expected).slice(0, 160)}`;
  if (expected.length !== actual.length)
    return `${path}: ${actual.length} items, not ${expected.length}`;
  for (const [i, item] of expected.entries()) {
    const problem = mismatch(item, actual[i], scope, `${path}[${i}]`, inEvent);
    if (problem) return problem;
  }
  return undefined;
}

/** Every string the client side of a conversation holds. */
export function sentStrings(messages: readonly JsonObject[]): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node) && node['$var'] === undefined) Object.values(node).forEach(walk);
  };
  messages.forEach(walk);
  return out;
}
