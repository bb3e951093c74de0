// Array items, and every keyword the other facets do not read: compared as JSON, conservatively.
import type { SchemaObjectAt, WalkContext } from './walk.js';
import { compareNodes } from './walk.js';

/** Keywords some facet compares. */
const COMPARED = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'anyOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'contentEncoding',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'properties',
  'required',
  'additionalProperties',
]);

/** Keywords that never change what validates. `x-` keywords are IDL annotations, read where they matter. */
const ANNOTATIONS = new Set([
  'description',
  'examples',
  'title',
  '$comment',
  'default',
  'contentMediaType',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

export function compareItems(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  if (!('items' in o.schema) && !('items' in n.schema)) return;
  const before = o.schema['items'] ?? {};
  const after = n.schema['items'] ?? {};
  if (Array.isArray(before) || Array.isArray(after)) return;
  compareNodes(
    ctx,
    { schema: before, pointer: `${o.pointer}/items` },
    { schema: after, pointer: `${n.pointer}/items` },
  );
}

export function compareUnsupported(ctx: WalkContext, o: SchemaObjectAt, n: SchemaObjectAt): void {
  const keys = new Set([...Object.keys(o.schema), ...Object.keys(n.schema)]);
  for (const key of keys) {
    if (COMPARED.has(key) || ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === 'items' && !Array.isArray(o.schema['items']) && !Array.isArray(n.schema['items']))
      continue;
    if (JSON.stringify(o.schema[key]) === JSON.stringify(n.schema[key])) continue;
    ctx.emit({
      rule: 'schema-changed',
      change: 'both',
      oldPointer: key in o.schema ? `${o.pointer}/${key}` : o.pointer,
      newPointer: key in n.schema ? `${n.pointer}/${key}` : n.pointer,
      message: `\`${key}\` changed, and the comparator cannot tell whether it accepts more or less`,
    });
  }
}
