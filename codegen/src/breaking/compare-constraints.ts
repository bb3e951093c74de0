// Validation keywords that bound a value: lengths, ranges, counts, patterns, formats.
import type { Change } from './delta.js';
import type { RuleId } from './rules.js';
import { keywordPointer, typeSet } from './compare-values.js';
import type { SchemaObjectAt, WalkContext } from './walk.js';

const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties'] as const;
/** Keywords that only restrict when present and cannot be ordered when they change. */
const RESTRICTIONS = ['pattern', 'format', 'contentEncoding', 'multipleOf'] as const;

export function compareConstraints(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  for (const keyword of LOWER_BOUNDS) compareBound(ctx, o, n, keyword, 'lower');
  for (const keyword of UPPER_BOUNDS) compareBound(ctx, o, n, keyword, 'upper');
  compareRange(ctx, o, n, 'lower');
  compareRange(ctx, o, n, 'upper');
  for (const keyword of RESTRICTIONS) compareRestriction(ctx, o, n, keyword);
  if ((o.schema['uniqueItems'] === true) !== (n.schema['uniqueItems'] === true))
    report(
      ctx,
      o,
      n,
      'uniqueItems',
      n.schema['uniqueItems'] === true ? 'narrower' : 'wider',
      `\`uniqueItems\` ${show(o.schema['uniqueItems'])} → ${show(n.schema['uniqueItems'])}`,
    );
}

function compareBound(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  keyword: string,
  side: 'lower' | 'upper',
): void {
  const before = numberOrNull(o.schema[keyword]);
  const after = numberOrNull(n.schema[keyword]);
  if (before === after) return;
  const isStricter =
    before === null || (after !== null && (side === 'lower' ? after > before : after < before));
  report(
    ctx,
    o,
    n,
    keyword,
    isStricter ? 'narrower' : 'wider',
    `\`${keyword}\` ${show(before)} → ${show(after)}`,
  );
}

interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly keyword: string;
}

/** `minimum` / `exclusiveMinimum` (or the maximum pair) as one bound; integers make it inclusive. */
function rangeBound(schema: Record<string, unknown>, side: 'lower' | 'upper'): Bound | null {
  const [inclusiveKey, exclusiveKey] =
    side === 'lower' ? ['minimum', 'exclusiveMinimum'] : ['maximum', 'exclusiveMaximum'];
  const candidates: Bound[] = [];
  const inclusive = numberOrNull(schema[inclusiveKey]);
  const exclusive = numberOrNull(schema[exclusiveKey]);
  if (inclusive !== null)
    candidates.push({ value: inclusive, exclusive: false, keyword: inclusiveKey });
  if (exclusive !== null)
    candidates.push({ value: exclusive, exclusive: true, keyword: exclusiveKey });
  const isInteger = [...typeSet(schema)].every((t) => t === 'integer');
  const normalized = candidates.map((b) => (isInteger ? asInclusiveInteger(b, side) : b));
  return normalized.reduce<Bound | null>(
    (tightest, b) => (tightest === null || isTighter(b, tightest, side) ? b : tightest),
    null,
  );
}

function asInclusiveInteger(b: Bound, side: 'lower' | 'upper'): Bound {
  if (side === 'lower')
    return {
      ...b,
      exclusive: false,
      value: b.exclusive ? Math.floor(b.value) + 1 : Math.ceil(b.value),
    };
  return {
    ...b,
    exclusive: false,
    value: b.exclusive ? Math.ceil(b.value) - 1 : Math.floor(b.value),
  };
}

function isTighter(a: Bound, b: Bound, side: 'lower' | 'upper'): boolean {
  if (a.value !== b.value) return side === 'lower' ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

function compareRange(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  side: 'lower' | 'upper',
): void {
  const before = rangeBound(o.schema, side);
  const after = rangeBound(n.schema, side);
  if (before === null && after === null) return;
  if (before && after && before.value === after.value && before.exclusive === after.exclusive)
    return;
  const isStricter = before === null || (after !== null && isTighter(after, before, side));
  const keyword = after?.keyword ?? before?.keyword ?? '';
  const describe = (b: Bound | null) => (b ? `${b.keyword} ${b.value}` : 'none');
  report(
    ctx,
    o,
    n,
    keyword,
    isStricter ? 'narrower' : 'wider',
    `${side} bound ${describe(before)} → ${describe(after)}`,
    before?.keyword,
  );
}

function compareRestriction(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  keyword: string,
): void {
  const before = o.schema[keyword];
  const after = n.schema[keyword];
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const change: Change = before === undefined ? 'narrower' : after === undefined ? 'wider' : 'both';
  report(ctx, o, n, keyword, change, `\`${keyword}\` ${show(before)} → ${show(after)}`);
}

function report(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  keyword: string,
  change: Change,
  message: string,
  oldKeyword = keyword,
): void {
  const rule: RuleId =
    change === 'narrower'
      ? 'constraint-tightened'
      : change === 'wider'
        ? 'constraint-loosened'
        : 'constraint-changed';
  ctx.emit({
    rule,
    change,
    oldPointer: keywordPointer(o, oldKeyword),
    newPointer: keywordPointer(n, keyword),
    message,
  });
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function show(value: unknown): string {
  return value === undefined || value === null ? 'none' : JSON.stringify(value);
}
