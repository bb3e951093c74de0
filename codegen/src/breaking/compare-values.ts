// Which JSON types and which values a schema accepts: `type`, `const`, `enum`, `x-known-values`.
import { pathToPointer } from '../idl/source.js';
import type { Change } from './delta.js';
import type { RuleId } from './rules.js';
import type { SchemaObjectAt, WalkContext } from './walk.js';

type JsonType = 'null' | 'boolean' | 'integer' | 'fraction' | 'string' | 'array' | 'object';

const ALL_TYPES: readonly JsonType[] = [
  'null',
  'boolean',
  'integer',
  'fraction',
  'string',
  'array',
  'object',
];

/** The JSON types a schema accepts; `number` is integers plus fractions (JSON Schema: 1.0 is an integer). */
export function typeSet(schema: Record<string, unknown>): Set<JsonType> {
  const declared = schema['type'];
  if (typeof declared === 'string' || Array.isArray(declared)) {
    const names = (Array.isArray(declared) ? declared : [declared]) as string[];
    return new Set(
      names.flatMap((t): JsonType[] =>
        t === 'number' ? ['integer', 'fraction'] : [t as JsonType],
      ),
    );
  }
  if ('const' in schema) return new Set([typeOf(schema['const'])]);
  if (Array.isArray(schema['enum'])) return new Set(schema['enum'].map(typeOf));
  if (schema['x-known-values']) return new Set(['string']);
  return new Set(ALL_TYPES);
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'fraction';
  return typeof value as JsonType;
}

function describeTypes(types: Set<JsonType>): string {
  if (types.size === ALL_TYPES.length) return 'any';
  const isNumber = types.has('integer') && types.has('fraction');
  const names = [...types]
    .filter((t) => !(isNumber && t === 'fraction'))
    .map((t) => (isNumber && t === 'integer' ? 'number' : t));
  return names.join(' | ') || 'nothing';
}

export function compareTypes(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  const before = typeSet(o.schema);
  const after = typeSet(n.schema);
  const lost = [...before].some((t) => !after.has(t));
  const gained = [...after].some((t) => !before.has(t));
  if (!lost && !gained) return;
  const [rule, change]: [RuleId, Change] =
    lost && gained
      ? ['type-changed', 'both']
      : lost
        ? ['type-narrowed', 'narrower']
        : ['type-widened', 'wider'];
  ctx.emit({
    rule,
    change,
    oldPointer: keywordPointer(o, 'type'),
    newPointer: keywordPointer(n, 'type'),
    message: `type ${describeTypes(before)} → ${describeTypes(after)}`,
  });
}

type ValueSet =
  | { readonly kind: 'free' }
  | {
      readonly kind: 'open';
      readonly known: readonly string[];
      readonly gated: readonly string[];
      readonly deprecated: readonly string[];
    }
  | { readonly kind: 'closed'; readonly values: readonly unknown[] };

function valueSet(schema: Record<string, unknown>, version: number): ValueSet {
  if ('const' in schema) return { kind: 'closed', values: [schema['const']] };
  if (Array.isArray(schema['enum'])) return { kind: 'closed', values: schema['enum'] };
  const known = schema['x-known-values'];
  if (typeof known !== 'object' || known === null) return { kind: 'free' };
  const entries = Object.entries(known as Record<string, unknown>);
  const since = (entry: unknown) =>
    typeof entry === 'object' && entry !== null ? ((entry as { since?: number }).since ?? 1) : 1;
  return {
    kind: 'open',
    known: entries.filter(([, e]) => since(e) <= version).map(([v]) => v),
    gated: entries.filter(([, e]) => since(e) > version).map(([v]) => v),
    deprecated: entries
      .filter(([, e]) => typeof e === 'object' && e !== null && 'deprecated' in e)
      .map(([v]) => v),
  };
}

export function compareValues(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  const before = valueSet(o.schema, Number.POSITIVE_INFINITY);
  const after = valueSet(n.schema, ctx.version);
  const at = { oldPointer: valuesPointer(o), newPointer: valuesPointer(n) };
  if (before.kind === 'closed' && after.kind === 'closed') {
    compareClosed(ctx, o, n, before.values, after.values);
  } else if (before.kind === 'closed') {
    ctx.emit({
      rule: 'enum-opened',
      change: 'wider',
      ...at,
      message: `closed values ${list(before.values)} now accept ${after.kind === 'open' ? 'any string' : 'any value'}`,
    });
  } else if (after.kind === 'closed') {
    ctx.emit({
      rule: 'enum-closed',
      change: 'narrower',
      ...at,
      message: `values are now closed to ${list(after.values)}`,
    });
  } else if (after.kind === 'open') {
    const old = before.kind === 'open' ? before.known : [];
    for (const value of after.known.filter((v) => !old.includes(v)))
      ctx.emit({
        rule: 'known-value-added',
        change: 'none',
        ...at,
        newPointer: knownPointer(n, value),
        message: `new known value ${JSON.stringify(value)}`,
      });
    for (const value of after.gated)
      ctx.emit({
        rule: 'since-gated',
        change: 'none',
        ...at,
        newPointer: knownPointer(n, value),
        message: `known value ${JSON.stringify(value)} is new in a later version (since above ${ctx.version})`,
      });
    const wasDeprecated = before.kind === 'open' ? before.deprecated : [];
    for (const value of after.deprecated.filter((v) => !wasDeprecated.includes(v)))
      ctx.emit({
        rule: 'deprecated',
        change: 'none',
        ...at,
        newPointer: knownPointer(n, value),
        message: `known value ${JSON.stringify(value)} is deprecated`,
      });
  }
}

function compareClosed(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  before: readonly unknown[],
  after: readonly unknown[],
): void {
  const at = { oldPointer: valuesPointer(o), newPointer: valuesPointer(n) };
  const key = (v: unknown) => JSON.stringify(v);
  const removed = before.filter((v) => !after.map(key).includes(key(v)));
  const added = after.filter((v) => !before.map(key).includes(key(v)));
  if (removed.length === 0 && added.length === 0) return;
  const constant = o.schema['x-constant'] ?? n.schema['x-constant'];
  if (typeof constant === 'string') {
    ctx.emit({
      rule: 'constant-changed',
      change: 'both',
      ...at,
      message: `constant ${constant} ${list(before)} → ${list(after)}`,
    });
    return;
  }
  if (removed.length > 0)
    ctx.emit({
      rule: 'enum-value-removed',
      change: 'narrower',
      ...at,
      message: `value ${list(removed)} removed`,
    });
  if (added.length > 0)
    ctx.emit({
      rule: 'enum-value-added',
      change: 'wider',
      ...at,
      message: `value ${list(added)} added`,
    });
}

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function valuesPointer(node: SchemaObjectAt): string {
  for (const keyword of ['const', 'enum', 'x-known-values'])
    if (keyword in node.schema) return `${node.pointer}/${keyword}`;
  return node.pointer;
}

function knownPointer(node: SchemaObjectAt, value: string): string {
  return `${node.pointer}/x-known-values${pathToPointer([value])}`;
}

export function keywordPointer(node: SchemaObjectAt, keyword: string): string {
  return keyword in node.schema ? `${node.pointer}/${keyword}` : node.pointer;
}
