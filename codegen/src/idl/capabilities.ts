// The IDL's `capabilities` section: what a runtime reports in `initialize`'s result, the version
// that added each flag and the methods each guards. The object type marked `x-capabilities` gets one
// property per capability from here, so a flag's name, type and version are written once.
import type { RawIdl } from './build-model.js';
import { TYPE_SECTIONS } from './build-model.js';
import type { Finding } from './check.js';
import type { Capability, SchemaNode } from './model.js';
import { pathToPointer } from './source.js';

/** A capability as written in the IDL (idl.schema.json, `capability`). */
export interface RawCapability {
  name: string;
  type: 'boolean';
  since: number;
  guards: string[];
  description: string;
}

const MARK = 'x-capabilities';

/** Where the type that holds the capabilities is, if one is marked. */
function markedTypes(raw: RawIdl): { name: string; pointer: string; schema: SchemaNode }[] {
  return TYPE_SECTIONS.flatMap((section) =>
    Object.entries(raw[section])
      .filter(([, schema]) => schema[MARK] === true)
      .map(([name, schema]) => ({
        name,
        pointer: `/${section}${pathToPointer([name])}`,
        schema,
      })),
  );
}

/**
 * What the meta-schema cannot check: names are unique, one object type without hand-written
 * properties holds them, versions are in range, and each guarded method is a client → server
 * request guarded by no other capability.
 */
export function checkCapabilities(raw: RawIdl, findings: Finding[]): void {
  const capabilities = raw.capabilities ?? [];
  const marked = markedTypes(raw);
  checkHolder(capabilities.length > 0, marked, findings);
  const latest = raw.meta.protocolVersion ?? 1;
  const names = new Set<string>();
  const guardedBy = new Map<string, string>();
  capabilities.forEach((capability, i) => {
    const at = `/capabilities/${i}`;
    if (names.has(capability.name))
      findings.push({
        pointer: `${at}/name`,
        message: `capability "${capability.name}" is defined twice`,
        hint: 'give every capability a unique name',
      });
    names.add(capability.name);
    if (capability.since > latest)
      findings.push({
        pointer: `${at}/since`,
        message: `since ${capability.since} is above meta.protocolVersion (${latest})`,
        hint: `raise /meta/protocolVersion, or mark the capability with a version up to ${latest}`,
      });
    capability.guards.forEach((wireName, j) =>
      checkGuard(raw, capability, wireName, `${at}/guards/${j}`, guardedBy, findings),
    );
  });
}

function checkHolder(
  hasCapabilities: boolean,
  marked: ReturnType<typeof markedTypes>,
  findings: Finding[],
): void {
  if (hasCapabilities && marked.length !== 1)
    findings.push({
      pointer: marked[1]?.pointer ?? '/capabilities',
      message: `${marked.length} types are marked ${MARK}; the capabilities need exactly one`,
      hint: `mark the object type that \`initialize\` reports them in with "${MARK}": true`,
    });
  for (const holder of marked) {
    if (holder.schema['type'] !== 'object' || holder.schema['properties'] !== undefined)
      findings.push({
        pointer: holder.pointer,
        message: `a type marked ${MARK} is an object without hand-written properties`,
        hint: 'remove "properties": each capability of /capabilities becomes one',
      });
    if (!hasCapabilities)
      findings.push({
        pointer: `${holder.pointer}/${MARK}`,
        message: `${MARK} without any capability`,
        hint: 'add the capabilities under /capabilities, or remove the mark',
      });
  }
}

function checkGuard(
  raw: RawIdl,
  capability: RawCapability,
  wireName: string,
  pointer: string,
  guardedBy: Map<string, string>,
  findings: Finding[],
): void {
  const method = raw.methods.find((m) => m.method === wireName);
  if (!method || method.kind !== 'request' || method.direction !== 'clientToServer') {
    findings.push({
      pointer,
      message: `"${wireName}" is not a client → server request`,
      hint: `name a request of /methods by its wire name: ${raw.methods
        .filter((m) => m.kind === 'request')
        .map((m) => m.method)
        .join(', ')}`,
    });
    return;
  }
  const other = guardedBy.get(wireName);
  if (other !== undefined)
    findings.push({
      pointer,
      message: `"${wireName}" is already guarded by "${other}"`,
      hint: 'a method is guarded by one capability at most',
    });
  guardedBy.set(wireName, capability.name);
}

/** `raw` with the marked type's properties written from the capabilities (the input is unchanged). */
export function withCapabilityProperties(raw: RawIdl): RawIdl {
  const capabilities = raw.capabilities ?? [];
  const marked = markedTypes(raw);
  if (capabilities.length === 0 || marked.length !== 1) return raw;
  const holder = marked[0]!;
  const properties = Object.fromEntries(
    capabilities.map((c) => [
      c.name,
      {
        type: c.type,
        ...(c.since === 1 ? {} : { 'x-since': c.since }),
        description: c.description,
      },
    ]),
  );
  const { examples, ...rest } = holder.schema;
  const section = TYPE_SECTIONS.find((s) => raw[s][holder.name] !== undefined)!;
  const schema = { ...rest, properties, examples };
  return { ...raw, [section]: { ...raw[section], [holder.name]: schema } };
}

export function buildCapabilities(raw: RawIdl): Capability[] {
  return (raw.capabilities ?? []).map((c) => ({
    name: c.name,
    type: c.type,
    since: c.since,
    guards: c.guards,
    description: c.description,
  }));
}
