// Keywords the meta-schema allows but cannot place: lenient-decoding keywords sit on members (and
// skip-invalid-items on arrays), enum descriptions describe values of the enum, and a family of
// methods (`match: "prefix"`) claims no wire name another method has.
import type { RawIdl } from './build-model.js';
import { TYPE_SECTIONS } from './build-model.js';
import type { Finding } from './check.js';
import type { SchemaNode } from './model.js';
import { pathToPointer } from './source.js';

const LENIENT = [
  'x-deserialize-default-on-error',
  'x-deserialize-skip-invalid-items',
  'x-deserialize-default-on-null',
];

export function checkMemberKeywords(raw: RawIdl, findings: Finding[]): void {
  for (const section of TYPE_SECTIONS) {
    for (const [name, schema] of Object.entries(raw[section])) {
      const at = `/${section}${pathToPointer([name])}`;
      for (const key of LENIENT)
        if (schema[key] !== undefined)
          findings.push({
            pointer: `${at}/${key}`,
            message: `${key} on a type`,
            hint: 'lenient-decoding keywords go on the members that use the type (under properties), where a decoder can replace the value',
          });
      checkEnumDescriptions(schema, at, findings);
      const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
      for (const [member, property] of Object.entries(properties))
        checkLenientMember(property, `${at}/properties${pathToPointer([member])}`, findings);
    }
  }
}

function checkLenientMember(property: unknown, at: string, findings: Finding[]): void {
  if (typeof property !== 'object' || property === null) return;
  const schema = property as SchemaNode;
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if (schema['x-deserialize-skip-invalid-items'] === true && !types.includes('array'))
    findings.push({
      pointer: `${at}/x-deserialize-skip-invalid-items`,
      message: 'x-deserialize-skip-invalid-items on a member that is not an array',
      hint: 'use it on an array member ("type": "array" with "items"), or remove it',
    });
  if (schema['x-deserialize-default-on-null'] === true && types.includes('null'))
    findings.push({
      pointer: `${at}/x-deserialize-default-on-null`,
      message: 'x-deserialize-default-on-null on a member whose schema admits null',
      hint: 'null is already a valid value here: remove the keyword, or "null" from its type',
    });
}

function checkEnumDescriptions(schema: SchemaNode, at: string, findings: Finding[]): void {
  const described = schema['x-enum-descriptions'];
  if (described === undefined) return;
  const values = Array.isArray(schema['enum']) ? schema['enum'].map(String) : null;
  if (values === null) {
    findings.push({
      pointer: `${at}/x-enum-descriptions`,
      message: 'x-enum-descriptions on a type without `enum`',
      hint: 'describe the values of a closed enum; an open one uses x-known-values',
    });
    return;
  }
  for (const value of Object.keys(described as object))
    if (!values.includes(value))
      findings.push({
        pointer: `${at}/x-enum-descriptions${pathToPointer([value])}`,
        message: `"${value}" is not a value of the enum`,
        hint: `describe one of: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
      });
}

/** A family (`match: "prefix"`) must not claim another method's wire name. */
export function checkPrefixMethods(raw: RawIdl, findings: Finding[]): void {
  raw.methods.forEach((family, i) => {
    if (family.match !== 'prefix') return;
    raw.methods.forEach((other, j) => {
      if (i !== j && other.kind === family.kind && other.method.startsWith(family.method))
        findings.push({
          pointer: `/methods/${j}/method`,
          message: `"${other.method}" starts with "${family.method}", the prefix of /methods/${i}`,
          hint: "rename the method, or narrow the family's prefix, so every wire name has one entry",
        });
    });
  });
}
