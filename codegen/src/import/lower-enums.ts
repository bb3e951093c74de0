// Unions of values rewritten into the IDL's value types: `oneOf`/`anyOf` of string `const`s is a
// closed enum (`enum` + `x-enum-descriptions`), plus one bare `{ "type": "string" }` an open enum
// (`x-known-values`); `anyOf` of bare types (`null`, `integer`, `string`) is one type array.
import type { SchemaNode } from '../idl/model.js';

/** The options of a `oneOf` or `anyOf`, or null. */
export function optionsOf(schema: SchemaNode): SchemaNode[] | null {
  const options = schema['oneOf'] ?? schema['anyOf'];
  return Array.isArray(options) ? (options as SchemaNode[]) : null;
}

const isStringConst = (o: SchemaNode): boolean =>
  typeof o['const'] === 'string' && o['properties'] === undefined;
const isBareString = (o: SchemaNode): boolean =>
  o['type'] === 'string' &&
  Object.keys(o).every((k) => ['type', 'title', 'description'].includes(k));

/** `{ type: string, enum, x-enum-descriptions }` or `{ type: string, x-known-values }`, or null. */
export function lowerConstEnum(schema: SchemaNode): SchemaNode | null {
  const options = optionsOf(schema);
  if (!options || options.length === 0 || schema['properties'] !== undefined) return null;
  const consts = options.filter(isStringConst);
  const others = options.filter((o) => !isStringConst(o));
  const isOpen = others.length === 1 && others[0] !== undefined && isBareString(others[0]);
  if (consts.length === 0 || (others.length > 0 && !isOpen)) return null;
  const describe = (o: SchemaNode) =>
    String(o['description'] ?? o['title'] ?? `The value \`${String(o['const'])}\`.`);
  const base = { type: 'string', description: schema['description'] };
  if (isOpen)
    return {
      ...base,
      'x-known-values': Object.fromEntries(consts.map((o) => [String(o['const']), describe(o)])),
    };
  return {
    ...base,
    enum: consts.map((o) => o['const']),
    'x-enum-descriptions': Object.fromEntries(consts.map((o) => [String(o['const']), describe(o)])),
  };
}

/** Keywords that apply to one JSON type only, so they can sit beside others in a type array. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  integer: ['minimum', 'maximum', 'format'],
  number: ['minimum', 'maximum', 'format'],
  array: ['items', 'minItems', 'maxItems'],
  object: [],
  boolean: [],
  null: [],
};
const ANNOTATIONS = ['title', 'description'];

/** A bound of the integer option would apply to the number option too, once merged: both must say the same. */
function boundsAgree(options: readonly SchemaNode[]): boolean {
  const numeric = options.filter((o) => o['type'] === 'integer' || o['type'] === 'number');
  return ['minimum', 'maximum'].every((key) => {
    const values = new Set(numeric.map((o) => JSON.stringify(o[key])));
    return values.size === 1;
  });
}

/**
 * `anyOf` of options that are each one bare type with keywords of that type only, all different:
 * one schema with a type array and the keywords merged. Keywords that two options both carry with
 * different values (`format: int64` beside `format: double`) are annotations here and dropped;
 * a numeric bound on both `integer` and `number` that differs makes the rewrite unsafe (null).
 */
export function lowerScalarUnion(schema: SchemaNode): SchemaNode | null {
  const options = optionsOf(schema);
  if (!options || options.length < 2 || schema['properties'] !== undefined) return null;
  const types: string[] = [];
  const merged: Record<string, unknown> = {};
  const dropped = new Set<string>();
  for (const option of options) {
    const type = option['type'];
    if (typeof type !== 'string' || types.includes(type) || !(type in TYPE_KEYWORDS)) return null;
    const allowed = TYPE_KEYWORDS[type] ?? [];
    for (const [key, value] of Object.entries(option)) {
      if (key === 'type' || ANNOTATIONS.includes(key)) continue;
      if (!allowed.includes(key)) return null;
      if (key in merged && JSON.stringify(merged[key]) !== JSON.stringify(value)) {
        if (key !== 'format') return null;
        dropped.add(key);
      }
      merged[key] = value;
    }
    types.push(type);
  }
  for (const key of dropped) delete merged[key];
  if (types.includes('integer') && types.includes('number') && !boundsAgree(options)) return null;
  return { type: types, description: schema['description'], ...merged };
}
