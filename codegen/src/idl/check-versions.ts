// Version marks the meta-schema cannot check: every `since` names a version the IDL describes, and
// a member added after version 1 is optional (peers of earlier versions never send it).
import type { RawIdl, RawKnownValue } from './build-model.js';
import { TYPE_SECTIONS, propertySince } from './build-model.js';
import type { Finding } from './check.js';
import type { SchemaNode } from './model.js';
import { pathToPointer } from './source.js';

export function checkVersions(raw: RawIdl, findings: Finding[]): void {
  const latest = raw.meta.protocolVersion ?? 1;
  const checkSince = (since: number | undefined, pointer: string) => {
    if (since !== undefined && since > latest)
      findings.push({
        pointer,
        message: `since ${since} is above meta.protocolVersion (${latest})`,
        hint: `raise /meta/protocolVersion to ${since}, or mark the item with a version up to ${latest}`,
      });
  };
  raw.methods.forEach((m, i) => checkSince(m.since, `/methods/${i}/since`));
  for (const section of TYPE_SECTIONS) {
    for (const [name, schema] of Object.entries(raw[section])) {
      const at = `/${section}/${pathToPointer([name]).slice(1)}`;
      checkProperties(schema, at, checkSince, findings);
      const known = (schema['x-known-values'] ?? {}) as Record<string, RawKnownValue>;
      for (const [value, entry] of Object.entries(known))
        if (typeof entry === 'object')
          checkSince(entry.since, `${at}/x-known-values${pathToPointer([value])}/since`);
    }
  }
}

function checkProperties(
  schema: SchemaNode,
  at: string,
  checkSince: (since: number | undefined, pointer: string) => void,
  findings: Finding[],
): void {
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  const required = new Set((schema['required'] ?? []) as string[]);
  for (const [prop, propSchema] of Object.entries(properties)) {
    const since = propertySince(propSchema);
    const propAt = `${at}/properties${pathToPointer([prop])}`;
    if (since === 1) continue;
    checkSince(since, `${propAt}/x-since`);
    if (required.has(prop))
      findings.push({
        pointer: `${propAt}/x-since`,
        message: `member "${prop}" is new in version ${since} but required`,
        hint: `remove "${prop}" from "required": peers of versions before ${since} never send it`,
      });
  }
}
