// The bundle's definitions with each versioned member's (and known value's) `since` / `deprecated`
// written into descriptions, in the words of one language: generators that only read
// `description` (json-schema-to-typescript, datamodel-code-generator) then carry them.
import type { Model, SchemaNode } from '../idl/model.js';
import type { Versioned } from '../emit/version-notes.js';
import type { SchemaBundle } from './bundle.js';

/** How one language writes a description with its version notes. */
export type DescribeVersioned = (description: string, item: Versioned) => string;

const isVersioned = (item: Versioned) => item.since > 1 || item.deprecated !== null;

export function withVersionDescriptions(
  bundle: SchemaBundle,
  model: Model,
  describe: DescribeVersioned,
  describeValue: (value: string, item: Versioned) => string,
): SchemaBundle {
  const definitions: Record<string, SchemaNode> = { ...bundle.definitions };
  for (const type of model.types) {
    const schema = definitions[type.name];
    if (!schema) continue;
    const fields = type.fields.filter(isVersioned);
    const values = type.values.filter(isVersioned);
    if (fields.length === 0 && values.length === 0) continue;
    const properties = { ...(schema['properties'] as Record<string, SchemaNode> | undefined) };
    for (const field of fields) {
      const property = properties[field.name];
      if (!property) continue;
      // A bare `$ref` gets its description inside allOf, as the bundle does for every `$ref` with siblings.
      const { $ref, ...rest } = property;
      const base = typeof $ref === 'string' ? { allOf: [{ $ref }], ...rest } : property;
      properties[field.name] = {
        ...base,
        description: describe(String(property['description'] ?? ''), field).trim(),
      };
    }
    const notes = values.map((v) => describeValue(v.value, v));
    const description = [String(schema['description'] ?? ''), ...notes].join('\n');
    definitions[type.name] = {
      ...schema,
      description,
      ...(schema['properties'] ? { properties } : {}),
    };
  }
  return { ...bundle, definitions };
}
