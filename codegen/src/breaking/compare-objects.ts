// Objects: members added, removed, made required or optional, and what unknown members may be.
// Peers send only the members their version defines, and ignore members they do not know unless
// the object says `additionalProperties: false`.
import { propertySince } from '../idl/build-model.js';
import { pathToPointer } from '../idl/source.js';
import type { SchemaAt } from './document.js';
import type { SchemaObjectAt, WalkContext } from './walk.js';
import { compareNodes } from './walk.js';

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties'];

export function hasObjectKeywords(schema: Record<string, unknown>): boolean {
  return OBJECT_KEYWORDS.some((k) => k in schema);
}

interface ObjectView {
  readonly node: SchemaObjectAt;
  readonly members: ReadonlyMap<string, SchemaAt>;
  /** Members gated above the version in play (new side only). */
  readonly gated: ReadonlyMap<string, SchemaAt>;
  readonly required: ReadonlySet<string>;
  /** What an unknown member may be: anything, nothing, or a schema. */
  readonly unknown: 'any' | 'none' | SchemaAt;
}

function viewObject(node: SchemaObjectAt, version: number): ObjectView {
  const properties = (node.schema['properties'] ?? {}) as Record<string, unknown>;
  const members = new Map<string, SchemaAt>();
  const gated = new Map<string, SchemaAt>();
  for (const [name, schema] of Object.entries(properties)) {
    const at = { schema, pointer: `${node.pointer}/properties${pathToPointer([name])}` };
    (propertySince(schema) > version ? gated : members).set(name, at);
  }
  const additional = node.schema['additionalProperties'];
  const unknown =
    additional === undefined || additional === true
      ? 'any'
      : additional === false
        ? 'none'
        : { schema: additional, pointer: `${node.pointer}/additionalProperties` };
  return {
    node,
    members,
    gated,
    required: new Set((node.schema['required'] ?? []) as string[]),
    unknown,
  };
}

export function compareObjects(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  const before = viewObject(o, Number.POSITIVE_INFINITY);
  const after = viewObject(n, ctx.version);
  const names = new Set([...before.members.keys(), ...after.members.keys()]);
  for (const name of names) {
    const old = before.members.get(name);
    const next = after.members.get(name);
    if (old && next) compareMember(ctx, name, before, after, old, next);
    else if (old) memberRemoved(ctx, name, before, after, old);
    else if (next) memberAdded(ctx, name, before, after, next);
  }
  for (const [name, at] of after.gated)
    if (!before.members.has(name))
      ctx.emit({
        rule: 'since-gated',
        change: 'none',
        oldPointer: o.pointer,
        newPointer: at.pointer,
        message: `member \`${name}\` is new in version ${propertySince(at.schema)}`,
      });
  compareUnknownMembers(ctx, before, after);
}

function compareMember(
  ctx: WalkContext,
  name: string,
  before: ObjectView,
  after: ObjectView,
  old: SchemaAt,
  next: SchemaAt,
): void {
  const at = { oldPointer: old.pointer, newPointer: next.pointer };
  const wasRequired = before.required.has(name);
  const isRequired = after.required.has(name);
  if (wasRequired && !isRequired)
    ctx.emit({
      rule: 'field-optional',
      change: 'wider',
      ...at,
      message: `member \`${name}\` is no longer required`,
    });
  if (!wasRequired && isRequired)
    ctx.emit({
      rule: 'field-required',
      change: 'narrower',
      ...at,
      message: `member \`${name}\` is now required`,
    });
  if (isDeprecated(next.schema) && !isDeprecated(old.schema))
    ctx.emit({
      rule: 'deprecated',
      change: 'none',
      ...at,
      message: `member \`${name}\` is deprecated`,
    });
  compareNodes(ctx, old, next);
}

function memberRemoved(
  ctx: WalkContext,
  name: string,
  before: ObjectView,
  after: ObjectView,
  old: SchemaAt,
): void {
  const at = { oldPointer: old.pointer, newPointer: after.node.pointer };
  if (before.required.has(name))
    ctx.emit({
      rule: 'field-optional',
      change: 'wider',
      ...at,
      message: `required member \`${name}\` was removed`,
    });
  if (after.unknown === 'none')
    ctx.emit({
      rule: 'field-removed',
      change: 'narrower',
      ...at,
      message: `member \`${name}\` was removed and the object rejects unknown members`,
    });
  else if (after.unknown === 'any' && !before.required.has(name))
    ctx.emit({
      rule: 'field-removed',
      change: 'none',
      ...at,
      message: `member \`${name}\` was removed; new peers ignore it`,
    });
  else if (after.unknown !== 'any') compareNodes(ctx, old, after.unknown);
}

function memberAdded(
  ctx: WalkContext,
  name: string,
  before: ObjectView,
  after: ObjectView,
  next: SchemaAt,
): void {
  const at = { oldPointer: before.node.pointer, newPointer: next.pointer };
  if (after.required.has(name))
    ctx.emit({
      rule: 'field-required',
      change: 'narrower',
      ...at,
      message: `new member \`${name}\` is required`,
    });
  if (before.unknown === 'none')
    ctx.emit({
      rule: 'field-added',
      change: 'wider',
      ...at,
      message: `new member \`${name}\` in an object the old version closes (\`additionalProperties: false\`)`,
    });
  else if (before.unknown === 'any' && !after.required.has(name))
    ctx.emit({ rule: 'field-added', change: 'none', ...at, message: `new member \`${name}\`` });
  else if (before.unknown !== 'any') compareNodes(ctx, before.unknown, next);
}

function compareUnknownMembers(ctx: WalkContext, before: ObjectView, after: ObjectView): void {
  const at = { oldPointer: additionalPointer(before), newPointer: additionalPointer(after) };
  const [o, n] = [before.unknown, after.unknown];
  if (o === n) return;
  if (o === 'none' && n === 'any')
    ctx.emit({
      rule: 'object-opened',
      change: 'wider',
      ...at,
      message: 'unknown members were rejected, now they pass',
    });
  else if (o === 'any' && n === 'none')
    ctx.emit({
      rule: 'object-closed',
      change: 'narrower',
      ...at,
      message: 'unknown members passed, now they are rejected',
    });
  else compareNodes(ctx, asSchema(o, before), asSchema(n, after));
}

function asSchema(unknown: ObjectView['unknown'], view: ObjectView): SchemaAt {
  if (unknown === 'any') return { schema: {}, pointer: view.node.pointer };
  if (unknown === 'none') return { schema: false, pointer: view.node.pointer };
  return unknown;
}

function additionalPointer(view: ObjectView): string {
  return typeof view.unknown === 'object' || 'additionalProperties' in view.node.schema
    ? `${view.node.pointer}/additionalProperties`
    : view.node.pointer;
}

function isDeprecated(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'x-deprecated' in schema;
}
