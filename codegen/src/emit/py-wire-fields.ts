// What a Python dataclass field is, from the typed bundle (py-typed-bundle.ts): its attribute, its
// wire name, how its value converts (objects, unions, arrays and maps of them; nullable members by
// their non-null branch), whether it is required and whether it admits null. wire_names.py prints
// these; converters.py decodes by them.
import type { Model, SchemaNode } from '../idl/model.js';
import { refName } from '../idl/model.js';
import { safePyIdentifier, snakeCase } from '../idl/names.js';
import type { SchemaBundle } from '../schema/bundle.js';
import { allProperties, pyTypedBundle } from './py-typed-bundle.js';

/** How a value converts between JSON and Python. `scalar` values are kept as they are. */
export type Conversion =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'object' | 'union'; readonly typeName: string }
  | { readonly kind: 'array'; readonly items: Conversion }
  | { readonly kind: 'map'; readonly values: Conversion };

export interface WireField {
  readonly attribute: string;
  readonly wireName: string;
  readonly conversion: Conversion;
  readonly required: boolean;
  /** The schema admits `null`, so `None` alone cannot tell a `null` from an absent member. */
  readonly nullable: boolean;
}

const SCALAR: Conversion = { kind: 'scalar' };
const EXTRA_ATTRIBUTE = 'extra';
/** The attribute datamodel-code-generator gives a wire name under `--snake-case-field` (`_meta` → `field_meta`). */
export function pyAttribute(wireName: string): string {
  const name = safePyIdentifier(snakeCase(wireName));
  return name.startsWith('_') ? `field${name}` : name;
}

/** Definitions that become dataclasses: every object schema of the bundle (datamodel-code-generator's rule). */
export function classNames(bundle: SchemaBundle): string[] {
  return Object.entries(bundle.definitions)
    .filter(([, schema]) => schema['type'] === 'object')
    .map(([name]) => name);
}

export function conversionOfType(name: string, bundle: SchemaBundle, model: Model): Conversion {
  const schema = bundle.definitions[name];
  if (!schema) throw new Error(`py-bindings: unknown definition ${name}`);
  if (model.types.find((t) => t.name === name)?.union) return { kind: 'union', typeName: name };
  if (Array.isArray(schema['anyOf']) || Array.isArray(schema['oneOf'])) {
    throw new Error(
      `py-bindings: ${name} is an anyOf/oneOf without x-discriminator; the codec cannot decode it`,
    );
  }
  if (schema['type'] === 'object') return { kind: 'object', typeName: name };
  return conversionOf(schema, bundle, model);
}

/** The conversion of a property schema. Arrays of scalars stay scalar: no per-item work. */
export function conversionOf(node: unknown, bundle: SchemaBundle, model: Model): Conversion {
  if (typeof node !== 'object' || node === null) return SCALAR;
  const schema = node as SchemaNode;
  const target = refName(schema) ?? singleAllOfRef(schema);
  if (target) return conversionOfType(target, bundle, model);
  const nonNull = nonNullBranch(schema);
  if (nonNull !== undefined) return conversionOf(nonNull, bundle, model);
  if (Array.isArray(schema['anyOf']) || Array.isArray(schema['oneOf'])) {
    throw new Error(
      'py-bindings: an inline anyOf/oneOf (other than one schema or null) cannot be decoded; name it as a union type in the IDL',
    );
  }
  if (hasType(schema, 'array') && schema['items'] !== undefined) {
    const items = conversionOf(schema['items'], bundle, model);
    return items.kind === 'scalar' ? SCALAR : { kind: 'array', items };
  }
  const values = schema['additionalProperties'];
  if (hasType(schema, 'object') && !schema['properties'] && typeof values === 'object') {
    const converted = conversionOf(values, bundle, model);
    return converted.kind === 'scalar' ? SCALAR : { kind: 'map', values: converted };
  }
  return SCALAR;
}

/** `type: "array"` or `type: ["array", "null"]`. */
function hasType(schema: SchemaNode, type: string): boolean {
  const declared = schema['type'];
  return Array.isArray(declared) ? declared.includes(type) : declared === type;
}

/** The one other branch of a nullable `anyOf`/`oneOf` (`[{ $ref: X }, { type: "null" }]`). */
function nonNullBranch(schema: SchemaNode): unknown {
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (!Array.isArray(branches)) return undefined;
  const others = branches.filter((b) => (b as SchemaNode | null)?.['type'] !== 'null');
  return others.length === 1 && others.length < branches.length ? others[0] : undefined;
}

function singleAllOfRef(schema: SchemaNode): string | null {
  const allOf = schema['allOf'];
  return Array.isArray(allOf) && allOf.length === 1 ? refName(allOf[0]) : null;
}

/** Whether a property schema admits `null`: it says so, or it constrains nothing. */
export function admitsNull(node: unknown, bundle: SchemaBundle): boolean {
  if (node === true) return true;
  if (typeof node !== 'object' || node === null) return false;
  const schema = node as SchemaNode;
  const target = refName(schema) ?? singleAllOfRef(schema);
  if (target) return admitsNull(bundle.definitions[target], bundle);
  const type = schema['type'];
  if (Array.isArray(type)) return type.includes('null');
  if (type !== undefined) return type === 'null';
  if ('const' in schema) return schema['const'] === null;
  if (Array.isArray(schema['enum'])) return schema['enum'].includes(null);
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches)) return branches.some((b) => admitsNull(b, bundle));
  return !['allOf', 'not'].some((k) => k in schema);
}

/** The fields of a dataclass: its object bases' members first, then its own, as the dataclass has them. */
export function wireFields(name: string, bundle: SchemaBundle, model: Model): WireField[] {
  const { properties, required } = allProperties(name, pyTypedBundle(bundle));
  const fields = [...properties]
    .filter(([, property]) => property !== false)
    .map(([wireName, property]) => ({
      attribute: pyAttribute(wireName),
      wireName,
      conversion: conversionOf(property, bundle, model),
      required: required.has(wireName),
      nullable: admitsNull(property, bundle),
    }));
  const attributes = new Set<string>();
  for (const field of fields) {
    if (field.attribute === EXTRA_ATTRIBUTE || attributes.has(field.attribute)) {
      throw new Error(
        `py-bindings: ${name}.${field.wireName} becomes the Python attribute "${field.attribute}", which is taken` +
          ` (by another field, or by WireObject.${EXTRA_ATTRIBUTE}); rename the property in the IDL`,
      );
    }
    attributes.add(field.attribute);
  }
  return fields;
}
