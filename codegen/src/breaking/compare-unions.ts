// Discriminated unions: variants matched by their tag (never by name or position), open unions
// checked against their unknown variant, which holds every tag the version does not know.
import type { IdlDocument, SchemaAt } from './document.js';
import { resolveSchema } from './document.js';
import type { Delta } from './delta.js';
import { breakingChange, isBreaking } from './delta.js';
import type { SchemaObjectAt, WalkContext } from './walk.js';
import { compareNodes, withSink } from './walk.js';

interface Variant {
  readonly key: string;
  readonly tag: string | null;
  readonly node: SchemaAt;
}

interface UnionView {
  readonly discriminator: unknown;
  readonly variants: ReadonlyMap<string, Variant>;
  readonly unknown: Variant | null;
}

export function compareUnions(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  if (!('anyOf' in o.schema) || !('anyOf' in n.schema)) {
    ctx.emit({
      rule: 'schema-changed',
      change: 'both',
      oldPointer: o.pointer,
      newPointer: n.pointer,
      message: 'a union replaced a single schema, or the reverse',
    });
    return;
  }
  const before = viewUnion(ctx.old, o);
  const after = viewUnion(ctx.new, n);
  if (before.discriminator !== after.discriminator) {
    ctx.emit({
      rule: 'union-discriminator-changed',
      change: 'both',
      oldPointer: o.pointer,
      newPointer: n.pointer,
      message: `discriminator ${String(before.discriminator)} → ${String(after.discriminator)}`,
    });
    return;
  }
  compareOpenness(ctx, o, n, before, after);
  for (const [key, old] of before.variants) {
    const next = after.variants.get(key);
    if (next) compareNodes(ctx, old.node, next.node);
    else variantRemoved(ctx, old, n, after);
  }
  for (const [key, next] of after.variants)
    if (!before.variants.has(key)) variantAdded(ctx, next, o, before);
  if (before.unknown && after.unknown) compareNodes(ctx, before.unknown.node, after.unknown.node);
}

/** Variants in dispatch order, nested unions flattened, keyed by tag and `x-select`. */
function viewUnion(doc: IdlDocument, node: SchemaObjectAt): UnionView {
  const discriminator = node.schema['x-discriminator'];
  const variants = new Map<string, Variant>();
  let unknown: Variant | null = null;
  const visit = (union: SchemaAt) => {
    const options = ((union.schema as Record<string, unknown>)['anyOf'] ?? []) as unknown[];
    options.forEach((option, i) => {
      const resolved = resolveSchema(doc, {
        schema: option,
        pointer: `${union.pointer}/anyOf/${i}`,
      });
      const schema = (resolved.schema ?? {}) as Record<string, unknown>;
      if ('anyOf' in schema) return visit(resolved);
      const variant = describeVariant(resolved, schema, String(discriminator));
      if (variant.tag === null) unknown ??= variant;
      else if (!variants.has(variant.key)) variants.set(variant.key, variant);
    });
  };
  visit(node);
  return { discriminator, variants, unknown };
}

function describeVariant(
  node: SchemaAt,
  schema: Record<string, unknown>,
  discriminator: string,
): Variant {
  const properties = (schema['properties'] ?? {}) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const tag = properties[discriminator]?.['const'];
  const select = (schema['x-select'] ?? []) as string[];
  const isTagged = typeof tag === 'string';
  return { key: isTagged ? [tag, ...select].join('+') : '', tag: isTagged ? tag : null, node };
}

function compareOpenness(
  ctx: WalkContext,
  o: SchemaObjectAt,
  n: SchemaObjectAt,
  before: UnionView,
  after: UnionView,
): void {
  const at = { oldPointer: o.pointer, newPointer: n.pointer };
  if (before.unknown && !after.unknown)
    ctx.emit({
      rule: 'union-closed',
      change: 'narrower',
      ...at,
      message: 'the union no longer accepts unknown variants',
    });
  if (!before.unknown && after.unknown)
    ctx.emit({
      rule: 'union-opened',
      change: 'wider',
      ...at,
      message: 'the union now accepts unknown variants',
    });
}

/** A tag the new version no longer knows falls to its unknown variant, if it has one. */
function variantRemoved(ctx: WalkContext, old: Variant, n: SchemaObjectAt, after: UnionView): void {
  const at = { oldPointer: old.node.pointer, newPointer: after.unknown?.node.pointer ?? n.pointer };
  const counterpart = pinTag(after, old.tag);
  const problem = counterpart ? firstBreaking(ctx, old.node, counterpart) : null;
  if (counterpart && !problem) {
    ctx.emit({
      rule: 'union-variant-removed',
      change: 'none',
      ...at,
      message: `variant ${JSON.stringify(old.tag)} removed; such values now pass as unknown`,
    });
    return;
  }
  const why = problem
    ? `such values now fall to the unknown variant, which differs (${problem.message})`
    : 'the union is closed';
  ctx.emit({
    rule: 'union-variant-removed',
    change: counterpart ? breakingChange(ctx.polarity) : 'narrower',
    ...at,
    message: `variant ${JSON.stringify(old.tag)} removed; ${why}`,
  });
}

/** A tag the old version did not know went to its unknown variant, if it had one. */
function variantAdded(ctx: WalkContext, next: Variant, o: SchemaObjectAt, before: UnionView): void {
  const at = {
    oldPointer: before.unknown?.node.pointer ?? o.pointer,
    newPointer: next.node.pointer,
  };
  const counterpart = pinTag(before, next.tag);
  const problem = counterpart ? firstBreaking(ctx, counterpart, next.node) : null;
  if (counterpart && !problem) {
    ctx.emit({
      rule: 'union-variant-added',
      change: 'none',
      ...at,
      message: `new variant ${JSON.stringify(next.tag)}; old peers keep it as unknown`,
    });
    return;
  }
  const why = problem
    ? `the old version reads such values as unknown, which differs (${problem.message})`
    : 'the old union is closed';
  ctx.emit({
    rule: 'union-variant-added',
    change: counterpart ? breakingChange(ctx.polarity) : 'wider',
    ...at,
    message: `new variant ${JSON.stringify(next.tag)}; ${why}`,
  });
}

/** The unknown variant as it applies to one tag: its discriminator fixed to that tag. */
function pinTag(view: UnionView, tag: string | null): SchemaAt | null {
  if (!view.unknown) return null;
  const schema = view.unknown.node.schema as Record<string, unknown>;
  const byTag = pinned.get(schema) ?? new Map<string | null, SchemaAt>();
  pinned.set(schema, byTag);
  const cached = byTag.get(tag);
  if (cached) return cached;
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  const withTag = { ...properties, [String(view.discriminator)]: { type: 'string', const: tag } };
  const node = { schema: { ...schema, properties: withTag }, pointer: view.unknown.node.pointer };
  byTag.set(tag, node);
  return node;
}

/** Pinned schemas keep their identity, so a recursive walk recognises them. */
const pinned = new WeakMap<object, Map<string | null, SchemaAt>>();

function firstBreaking(ctx: WalkContext, old: SchemaAt, next: SchemaAt): Delta | null {
  const found: Delta[] = [];
  compareNodes(
    withSink(ctx, (d) => found.push(d)),
    old,
    next,
  );
  return found.find((d) => isBreaking(d.change, ctx.polarity)) ?? null;
}
