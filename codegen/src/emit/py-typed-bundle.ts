// The schema bundle as the Python typed layer (models.py, wire_names.py, converters.py) reads it. Two
// constructs a dataclass cannot carry as they are written are rewritten here, once, so that the
// models datamodel-code-generator makes and the tables the codec walks agree field for field:
// - an object that extends a union (`allOf: [{ $ref: <union> }]`) gets the variants' members as its
//   own optional ones (two slotted variant classes cannot both be its bases);
// - a member's `default` moves into its description: decoding keeps an absent member absent (None),
//   so the field's default is None too, and an object default could not be a dataclass default.
// Bundles without either construct come back unchanged. The validators read the bundle itself.
import type { SchemaNode } from '../idl/model.js';
import { refName } from '../idl/model.js';
import type { SchemaBundle } from '../schema/bundle.js';

const typed = new WeakMap<SchemaBundle, SchemaBundle>();

export function pyTypedBundle(bundle: SchemaBundle): SchemaBundle {
  let result = typed.get(bundle);
  if (!result) {
    result = withDefaultsDescribed(withUnionBasesMerged(bundle));
    typed.set(bundle, result);
    typed.set(result, result);
  }
  return result;
}

/** A definition's members with those of its object bases (`allOf` refs), bases first, as a dataclass orders them. */
export function allProperties(
  name: string,
  bundle: SchemaBundle,
): { properties: Map<string, unknown>; required: Set<string> } {
  const schema = bundle.definitions[name] ?? {};
  const properties = new Map<string, unknown>();
  const required = new Set<string>();
  for (const base of objectBases(schema, bundle)) {
    const inherited = allProperties(base, bundle);
    for (const [key, value] of inherited.properties) properties.set(key, value);
    for (const key of inherited.required) required.add(key);
  }
  const own = (schema['properties'] ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(own)) properties.set(key, value);
  for (const key of (schema['required'] ?? []) as string[]) required.add(key);
  return { properties, required };
}

const isObjectType = (schema: SchemaNode | undefined): boolean => schema?.['type'] === 'object';

function allOfRefs(schema: SchemaNode): string[] {
  const allOf = schema['allOf'];
  if (!Array.isArray(allOf)) return [];
  return allOf.map((item) => refName(item)).filter((n): n is string => n !== null);
}

function objectBases(schema: SchemaNode, bundle: SchemaBundle): string[] {
  return allOfRefs(schema).filter((base) => isObjectType(bundle.definitions[base]));
}

/** The definitions an object's `allOf` names that are unions (`anyOf`/`oneOf` of refs). */
function unionBases(schema: SchemaNode, bundle: SchemaBundle): string[] {
  if (!isObjectType(schema)) return [];
  return allOfRefs(schema).filter((base) => variantsOf(bundle.definitions[base]).length > 0);
}

function variantsOf(schema: SchemaNode | undefined): string[] {
  const items = schema?.['anyOf'] ?? schema?.['oneOf'];
  if (!Array.isArray(items)) return [];
  return items.map((item) => refName(item)).filter((n): n is string => n !== null);
}

function withUnionBasesMerged(bundle: SchemaBundle): SchemaBundle {
  const merging = Object.entries(bundle.definitions).filter(
    ([, schema]) => unionBases(schema, bundle).length > 0,
  );
  if (merging.length === 0) return bundle;
  const definitions = { ...bundle.definitions };
  for (const [name, schema] of merging) definitions[name] = mergedUnionBases(schema, bundle);
  return { ...bundle, definitions };
}

/** The variants' members become optional members (required where every variant requires them). */
function mergedUnionBases(schema: SchemaNode, bundle: SchemaBundle): SchemaNode {
  const unions = new Set(unionBases(schema, bundle));
  const properties: Record<string, unknown> = {};
  const required = new Set((schema['required'] ?? []) as string[]);
  for (const union of unions) {
    const variants = variantsOf(bundle.definitions[union]).map((v) => allProperties(v, bundle));
    for (const variant of variants) {
      for (const [key, value] of variant.properties)
        if (!(key in properties)) properties[key] = value;
    }
    const inEvery = [...(variants[0]?.required ?? [])].filter((key) =>
      variants.every((v) => v.required.has(key)),
    );
    for (const key of inEvery) required.add(key);
  }
  Object.assign(properties, schema['properties'] ?? {});
  const allOf = (schema['allOf'] as unknown[]).filter((item) => !unions.has(refName(item) ?? ''));
  const { allOf: _dropped, ...rest } = schema;
  return {
    ...rest,
    ...(allOf.length > 0 ? { allOf } : {}),
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
  };
}

function withDefaultsDescribed(bundle: SchemaBundle): SchemaBundle {
  const hasDefault = (schema: SchemaNode): boolean =>
    Object.values((schema['properties'] ?? {}) as Record<string, unknown>).some(
      (p) => typeof p === 'object' && p !== null && 'default' in p,
    );
  if (!Object.values(bundle.definitions).some(hasDefault)) return bundle;
  const definitions: SchemaBundle['definitions'] = {};
  for (const [name, schema] of Object.entries(bundle.definitions)) {
    if (!hasDefault(schema)) {
      definitions[name] = schema;
      continue;
    }
    const properties = Object.entries(schema['properties'] as Record<string, unknown>).map(
      ([key, property]) => [key, describedDefault(property)],
    );
    definitions[name] = { ...schema, properties: Object.fromEntries(properties) };
  }
  return { ...bundle, definitions };
}

function describedDefault(property: unknown): unknown {
  if (typeof property !== 'object' || property === null || !('default' in property)) {
    return property;
  }
  const { default: value, ...rest } = property as SchemaNode;
  const text = `An absent member means \`${JSON.stringify(value)}\` (decoding keeps it absent: None).`;
  const description = rest['description'];
  return { ...rest, description: description ? `${String(description)}\n\n${text}` : text };
}
