// The IDL as a sender of some version uses it: methods, members and known values gated above that
// version (`since`) left out, and only the members the version defines.
import type { RawIdl, RawKnownValue } from '../../idl/build-model.js';
import { TYPE_SECTIONS, propertySince } from '../../idl/build-model.js';

export function projectToVersion(raw: RawIdl, version: number): RawIdl {
  const copy = structuredClone(raw);
  copy.methods = copy.methods.filter((m) => (m.since ?? 1) <= version);
  for (const section of TYPE_SECTIONS)
    for (const schema of Object.values(copy[section]))
      projectSchema(schema as Record<string, unknown>, version);
  return copy;
}

function projectSchema(schema: Record<string, unknown>, version: number): void {
  const properties = schema['properties'] as Record<string, unknown> | undefined;
  if (properties) {
    const gated = Object.keys(properties).filter(
      (name) => propertySince(properties[name]) > version,
    );
    for (const name of gated) delete properties[name];
    if (Array.isArray(schema['required']))
      schema['required'] = (schema['required'] as string[]).filter((name) => !gated.includes(name));
  }
  const known = schema['x-known-values'] as Record<string, RawKnownValue> | undefined;
  if (known)
    for (const [value, entry] of Object.entries(known))
      if (typeof entry === 'object' && (entry.since ?? 1) > version) delete known[value];
}

/**
 * Objects closed to members their version does not define: a peer sends only what its version
 * knows. Open on purpose stay open: an explicit `additionalProperties`, and unknown variants
 * (values of versions and plugins this one does not know).
 */
export function onlyDefinedMembers(raw: RawIdl): RawIdl {
  const copy = structuredClone(raw);
  for (const section of TYPE_SECTIONS)
    for (const schema of Object.values(copy[section]) as Record<string, unknown>[])
      if (
        'properties' in schema &&
        !('additionalProperties' in schema) &&
        schema['x-unknown-variant'] !== true
      )
        schema['additionalProperties'] = false;
  return copy;
}
