// The lenient-decoding keywords (idl.schema.json) as the validators run them: a member's schema
// becomes a test whose failure repairs the value instead of reporting it, as the decoders of the
// official SDKs of such a protocol read it (serde's `default`: the member's `default`, else its
// type's empty value), so the type holds for what handlers get:
// - a value that breaks a `x-deserialize-default-on-error` member becomes its `default`; without
//   one, an optional member is removed and a required one becomes its type's empty value;
// - an item that breaks a `x-deserialize-skip-invalid-items` array is removed;
// - `null` in a `x-deserialize-default-on-null` member becomes its `default`, else its type's
//   empty value, else (a member without a plain type) it is removed.
// The repairs are ajv keywords of the validators' own (ajv-keywords.ts), which change the data.
import type { SchemaNode } from '../idl/model.js';

/** Removes the member (an array item: marks it for LENIENT_COMPACT). */
export const LENIENT_DROP = 'x-lenient-drop';
/** Replaces the member with this keyword's value. */
export const LENIENT_DEFAULT = 'x-lenient-default';
/** On an array, after `items`: removes the items LENIENT_DROP marked. */
export const LENIENT_COMPACT = 'x-lenient-compact';

/** The keywords the validators define (and must not drop as annotations). */
export const LENIENT_KEYWORDS: readonly string[] = [LENIENT_DROP, LENIENT_DEFAULT, LENIENT_COMPACT];

const EMPTY: Readonly<Record<string, unknown>> = {
  array: [],
  object: {},
  string: '',
  integer: 0,
  number: 0,
  boolean: false,
};

/** The empty value of a schema's (first non-null) type, as serde's `Default`; undefined for none. */
function emptyValue(schema: SchemaNode): unknown {
  const types: unknown[] = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  const type = types.find((t) => t !== 'null');
  return typeof type === 'string' ? EMPTY[type] : undefined;
}

const replaceWith = (value: unknown): SchemaNode =>
  value === undefined ? { [LENIENT_DROP]: true } : { [LENIENT_DEFAULT]: value };

/**
 * A member's schema with its lenient keywords made into repairs; unchanged without them.
 * `isRequired`: the member is required, so a broken value is replaced rather than removed.
 */
export function lenientMember(schema: SchemaNode, isRequired: boolean): SchemaNode {
  if (typeof schema !== 'object' || schema === null) return schema;
  const onError = schema['x-deserialize-default-on-error'] === true;
  const skipItems = schema['x-deserialize-skip-invalid-items'] === true;
  const onNull = schema['x-deserialize-default-on-null'] === true;
  if (!onError && !skipItems && !onNull) return schema;
  const hasDefault = 'default' in schema;
  const fallback = hasDefault ? schema['default'] : emptyValue(schema);
  let repaired: SchemaNode = schema;
  const items = schema['items'];
  if (skipItems && typeof items === 'object' && items !== null)
    repaired = {
      ...repaired,
      items: { if: items, else: { [LENIENT_DROP]: true } },
      [LENIENT_COMPACT]: true,
    };
  if (onError)
    repaired = {
      if: repaired,
      else: replaceWith(isRequired || hasDefault ? fallback : undefined),
    };
  if (onNull) repaired = { if: { type: 'null' }, then: replaceWith(fallback), else: repaired };
  return repaired;
}
