// The protocol's number rule (the IDL's `meta.description`, `maxSafeInteger`) written into the bundle:
// every number a payload carries lies within ±maxSafeInteger, at any depth. Typed numbers get the
// bounds they lack; every object gets `additionalProperties: OpenValue`, so members no schema names,
// open objects (`usage`) and unknown variants are held to the same range. The published bundle and
// the validators read this form; the type emitters read the bundle without it (the rule adds no
// type, and an index signature on every interface would hide misspelt members).
import type { Model, SchemaNode } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import type { SchemaBundle } from './bundle.js';

/** The definition unknown members and open content are checked against. */
export const OPEN_VALUE = 'OpenValue';

/** Keywords whose value is an annotation, not a subschema. */
const ANNOTATION_KEYS = new Set(['title', 'description', 'examples', 'tsType', '$comment']);

export function withNumberRule(bundle: SchemaBundle, model: Model): SchemaBundle {
  const limit = model.meta.maxSafeInteger;
  const definitions: Record<string, SchemaNode> = {};
  for (const [name, schema] of Object.entries(bundle.definitions)) {
    definitions[name] = valueSchema(schema, limit);
  }
  definitions[OPEN_VALUE] = openValueSchema(model, REF_PREFIX + OPEN_VALUE);
  return { ...bundle, definitions };
}

/** `OpenValue`: any JSON value whose numbers, at any depth, lie within the range. */
export function openValueSchema(model: Model, selfRef: string): SchemaNode {
  const limit = model.meta.maxSafeInteger;
  return {
    title: OPEN_VALUE,
    description: `Any JSON value a payload carries without a schema of its own: a member no schema names, an open object's content, an unknown variant's data. Its numbers, at any depth, lie within ±${limit} (see the protocol's number rule).`,
    minimum: -limit,
    maximum: limit,
    items: { $ref: selfRef },
    additionalProperties: { $ref: selfRef },
  };
}

/**
 * A schema in value position (a definition, a property, array items): numbers get bounds, objects
 * get `additionalProperties: OpenValue` (unless they forbid extra members), and a schema that
 * accepts anything (only annotations) becomes OpenValue. Predicates (`if`, `not`) and union
 * branches are left alone: they select, and the selected schema applies the rule.
 */
function valueSchema(schema: SchemaNode, limit: number): SchemaNode {
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = { ...schema };
  const types = typeList(schema['type']);
  if (types.includes('integer') || types.includes('number')) {
    if (out['minimum'] === undefined) out['minimum'] = -limit;
    if (out['maximum'] === undefined) out['maximum'] = limit;
  }
  const isObject =
    types.includes('object') ||
    schema['properties'] !== undefined ||
    schema['required'] !== undefined;
  if (
    isObject &&
    (out['additionalProperties'] === undefined || out['additionalProperties'] === true)
  ) {
    out['additionalProperties'] = { $ref: REF_PREFIX + OPEN_VALUE };
  }
  const properties = schema['properties'];
  if (typeof properties === 'object' && properties !== null) {
    out['properties'] = Object.fromEntries(
      Object.entries(properties as Record<string, SchemaNode>).map(([name, sub]) => [
        name,
        acceptsAnything(sub) ? { ...sub, $ref: REF_PREFIX + OPEN_VALUE } : valueSchema(sub, limit),
      ]),
    );
  }
  if (typeof schema['items'] === 'object' && schema['items'] !== null) {
    out['items'] = valueSchema(schema['items'] as SchemaNode, limit);
  }
  return out;
}

/** True for `{}` or a schema of annotations only: any JSON value. */
function acceptsAnything(schema: unknown): schema is SchemaNode {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    Object.keys(schema).every((key) => ANNOTATION_KEYS.has(key) || key.startsWith('x-'))
  );
}

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? (type as string[]) : [];
}
