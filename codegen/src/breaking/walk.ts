// The structural walk: one old and one new schema, compared facet by facet, refs followed on both
// sides. Every facet module reports deltas through the context; the position judges them later.
import type { IdlDocument, SchemaAt } from './document.js';
import { resolveSchema } from './document.js';
import type { Delta, Polarity } from './delta.js';
import { compareConstraints } from './compare-constraints.js';
import { compareItems, compareUnsupported } from './compare-keywords.js';
import { compareObjects, hasObjectKeywords } from './compare-objects.js';
import { compareUnions } from './compare-unions.js';
import { compareTypes, compareValues } from './compare-values.js';

export interface WalkContext {
  readonly old: IdlDocument;
  readonly new: IdlDocument;
  /** The old protocol version: new-side items gated above it (`since`) are invisible. */
  readonly version: number;
  readonly polarity: Polarity;
  emit(delta: Delta): void;
  /** Pairs of schemas already compared into this sink. */
  readonly seen: Set<string>;
  /** Pairs being compared right now, across sinks: refs are recursive. */
  readonly active: Set<string>;
}

export function createContext(
  old: IdlDocument,
  next: IdlDocument,
  polarity: Polarity,
  emit: (delta: Delta) => void,
): WalkContext {
  return {
    old,
    new: next,
    version: old.version,
    polarity,
    emit,
    seen: new Set(),
    active: new Set(),
  };
}

/** The same walk into another sink (a union variant checked against the unknown variant). */
export function withSink(ctx: WalkContext, emit: (delta: Delta) => void): WalkContext {
  return { ...ctx, emit, seen: new Set() };
}

export function compareNodes(ctx: WalkContext, oldNode: SchemaAt, newNode: SchemaAt): void {
  const o = asSchemaObject(resolveSchema(ctx.old, oldNode));
  const n = asSchemaObject(resolveSchema(ctx.new, newNode));
  const key = `${o.pointer}|${identity(o.schema)}|${n.pointer}|${identity(n.schema)}`;
  if (ctx.seen.has(key) || ctx.active.has(key)) return;
  ctx.seen.add(key);
  ctx.active.add(key);
  try {
    if (o.schema === false || n.schema === false) compareNothing(ctx, o, n);
    else
      compareSchemas(
        ctx,
        { schema: o.schema, pointer: o.pointer },
        { schema: n.schema, pointer: n.pointer },
      );
  } finally {
    ctx.active.delete(key);
  }
}

function compareSchemas(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  if ('anyOf' in o.schema || 'anyOf' in n.schema) return compareUnions(ctx, o, n);
  compareTypes(ctx, o, n);
  compareValues(ctx, o, n);
  compareConstraints(ctx, o, n);
  if (hasObjectKeywords(o.schema) || hasObjectKeywords(n.schema)) compareObjects(ctx, o, n);
  compareItems(ctx, o, n);
  compareUnsupported(ctx, o, n);
}

export interface ObjectSchemaAt {
  readonly schema: Record<string, unknown> | false;
  readonly pointer: string;
}

export interface SchemaObjectAt {
  readonly schema: Record<string, unknown>;
  readonly pointer: string;
}

/** `true` is the empty schema; `false` stays (it accepts nothing). */
function asSchemaObject(node: SchemaAt): ObjectSchemaAt {
  if (node.schema === false) return { schema: false, pointer: node.pointer };
  if (typeof node.schema !== 'object' || node.schema === null)
    return { schema: {}, pointer: node.pointer };
  return node as ObjectSchemaAt;
}

function compareNothing(ctx: WalkContext, o: ObjectSchemaAt, n: ObjectSchemaAt): void {
  if (o.schema === false && n.schema === false) return;
  const isWider = o.schema === false;
  ctx.emit({
    rule: isWider ? 'type-widened' : 'type-narrowed',
    change: isWider ? 'wider' : 'narrower',
    oldPointer: o.pointer,
    newPointer: n.pointer,
    message: isWider
      ? 'accepted nothing (`false`), now accepts values'
      : 'now accepts nothing (`false`)',
  });
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** Schemas built during the walk (a variant with its tag pinned) differ from the file's by identity. */
function identity(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  let id = ids.get(schema);
  if (id === undefined) {
    id = nextId++;
    ids.set(schema, id);
  }
  return id;
}
