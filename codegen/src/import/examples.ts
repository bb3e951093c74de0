// An example for every imported type (the IDL asks for one and checks it): the settings' own, or
// the smallest value the type's schema accepts (required members only, first variant, first enum
// value, the lower bound of a number). The loader checks each against its type, so an example this
// cannot derive (a `pattern`) is reported there, with the fix: give it in the settings' examples.
import type { SchemaNode } from '../idl/model.js';
import { refName } from '../idl/model.js';

/** The discriminator value an unknown variant's example carries: no known variant claims it. */
const UNKNOWN_TAG = '_custom';
const MAX_DEPTH = 24;

export function exampleOf(
  name: string,
  types: ReadonlyMap<string, SchemaNode>,
  given: Readonly<Record<string, readonly unknown[]>>,
): unknown[] {
  const own = given[name];
  if (own) return [...own];
  return [new ExampleBuilder(types, given).ofType(name, 0)];
}

/** The discriminator of the union whose unknown variant `name` is, or null. */
function unknownVariantTag(name: string, types: ReadonlyMap<string, SchemaNode>): string | null {
  if (types.get(name)?.['x-unknown-variant'] !== true) return null;
  for (const schema of types.values()) {
    const options = schema['anyOf'];
    const discriminator = schema['x-discriminator'];
    if (
      Array.isArray(options) &&
      typeof discriminator === 'string' &&
      options.some((o) => refName(o) === name)
    )
      return discriminator;
  }
  return null;
}

class ExampleBuilder {
  constructor(
    private readonly types: ReadonlyMap<string, SchemaNode>,
    private readonly given: Readonly<Record<string, readonly unknown[]>>,
  ) {}

  ofType(name: string, depth: number): unknown {
    const own = this.given[name]?.[0];
    if (own !== undefined) return own;
    const value = this.of(this.types.get(name) ?? {}, depth + 1);
    const tag = unknownVariantTag(name, this.types);
    return tag !== null && typeof value === 'object' && value !== null
      ? { ...value, [tag]: UNKNOWN_TAG }
      : value;
  }

  of(schema: SchemaNode, depth: number): unknown {
    if (depth > MAX_DEPTH) return null;
    const ref = refName(schema);
    if (ref !== null) return this.ofType(ref, depth);
    if ('const' in schema) return schema['const'];
    if (Array.isArray(schema['enum'])) return schema['enum'][0];
    const known = schema['x-known-values'];
    if (typeof known === 'object' && known !== null) return Object.keys(known)[0] ?? '';
    if (Array.isArray(schema['anyOf'])) return this.ofUnion(schema, depth);
    const allOf = schema['allOf'];
    const isWrapper = schema['type'] === undefined && schema['properties'] === undefined;
    if (Array.isArray(allOf) && allOf.length === 1 && isWrapper)
      return this.of(allOf[0] as SchemaNode, depth + 1);
    const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type']];
    const type = types.find((t) => t !== 'null') ?? types[0];
    if (type === 'object' || schema['properties'] !== undefined || schema['allOf'] !== undefined)
      return this.ofObject(schema, depth);
    return scalarOf(type, schema, (items) => this.of(items, depth + 1));
  }

  /** A union's first variant; a nullable reference's `null`. */
  private ofUnion(schema: SchemaNode, depth: number): unknown {
    const options = schema['anyOf'] as SchemaNode[];
    if (options.some((o) => o['type'] === 'null') && options.length === 2) return null;
    const first = options[0];
    return first ? this.of(first, depth + 1) : null;
  }

  /** Its bases' examples merged, then its required members (an unknown variant's tag made up). */
  private ofObject(schema: SchemaNode, depth: number): Record<string, unknown> {
    const value: Record<string, unknown> = {};
    for (const base of (schema['allOf'] ?? []) as SchemaNode[]) {
      const merged = this.of(base, depth + 1);
      if (typeof merged === 'object' && merged !== null) Object.assign(value, merged);
    }
    const properties = (schema['properties'] ?? {}) as Record<string, SchemaNode>;
    for (const member of (schema['required'] ?? []) as string[]) {
      const property = properties[member];
      if (property !== undefined) value[member] = this.of(property, depth + 1);
    }
    return value;
  }
}

function scalarOf(type: unknown, schema: SchemaNode, items: (s: SchemaNode) => unknown): unknown {
  switch (type) {
    case 'string':
      if (schema['format'] === 'uri') return 'https://example.com/';
      return 'x'.repeat(typeof schema['minLength'] === 'number' ? schema['minLength'] : 0);
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const item = schema['items'];
      return Array.from({ length: count }, () =>
        typeof item === 'object' && item !== null ? items(item as SchemaNode) : null,
      );
    }
    default:
      return {};
  }
}
