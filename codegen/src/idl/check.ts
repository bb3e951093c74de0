// What the meta-schema cannot say: references resolve, names are unique, nothing is unused,
// unions are well formed, objects are named, examples match their schema, versions are in range.
import type { RawIdl } from './build-model.js';
import { TYPE_SECTIONS, buildModel } from './build-model.js';
import { checkExamples, checkUnused } from './check-usage.js';
import { checkSequences } from './check-sequences.js';
import { checkUnion } from './check-unions.js';
import { checkMemberKeywords, checkPrefixMethods } from './check-keywords.js';
import { checkVersions } from './check-versions.js';
import { collectMessages } from './messages.js';
import type { SchemaNode } from './model.js';
import { REF_PREFIX, refName } from './model.js';
import { pathToPointer } from './source.js';
import { ENVELOPE_NAMES } from '../schema/bundle.js';
import { OPEN_VALUE } from '../schema/number-rule.js';

/** A problem before it is located in the text. */
export interface Finding {
  pointer: string;
  message: string;
  hint: string;
}

export function checkIdl(raw: RawIdl): Finding[] {
  const findings: Finding[] = [];
  const typeHome = locateTypes(raw, findings);
  checkMethods(raw, typeHome, findings);
  checkErrors(raw, typeHome, findings);
  checkVersions(raw, findings);
  checkPrefixMethods(raw, findings);
  checkMemberKeywords(raw, findings);
  for (const section of TYPE_SECTIONS) {
    for (const [name, schema] of Object.entries(raw[section])) {
      const at = `/${section}/${name}`;
      walkSchema(schema, at, true, typeHome, findings);
      checkUnion(name, schema, at, raw, findings);
      if (
        schema['x-not-object-lacks-required'] === true &&
        (schema['type'] !== 'object' || !Array.isArray(schema['required']))
      )
        findings.push({
          pointer: `${at}/x-not-object-lacks-required`,
          message:
            'x-not-object-lacks-required on a type that is not an object with required members',
          hint: 'use it on an object type with "required", or remove it',
        });
      if (schema['x-constant'] !== undefined && schema['const'] === undefined) {
        findings.push({
          pointer: `${at}/x-constant`,
          message: 'x-constant on a type without `const`',
          hint: 'add a `const` value or remove x-constant',
        });
      }
    }
  }
  checkUnused(raw, typeHome, findings);
  if (findings.length === 0) {
    const model = buildModel(raw);
    checkExamples(model, typeHome, findings);
    checkSequences(model, findings);
  }
  return findings;
}

/** Maps each type name to its pointer, reporting names defined twice or reserved by the bundle. */
function locateTypes(raw: RawIdl, findings: Finding[]): Map<string, string> {
  const home = new Map<string, string>();
  for (const section of TYPE_SECTIONS) {
    for (const name of Object.keys(raw[section])) {
      const at = `/${section}/${name}`;
      if (ENVELOPE_NAMES.includes(name) || name.endsWith('Frame') || name === OPEN_VALUE)
        findings.push({
          pointer: at,
          message: `type name "${name}" is reserved: the schema bundle defines it (the JSON-RPC envelope, frames, OpenValue)`,
          hint: 'rename the type (an imported one through "definitionNames" of its protocol.import.json)',
        });
      const earlier = home.get(name);
      if (earlier)
        findings.push({
          pointer: at,
          message: `type "${name}" is also defined at ${earlier}`,
          hint: 'rename one of them or delete the duplicate',
        });
      else home.set(name, at);
    }
  }
  return home;
}

function checkMethods(raw: RawIdl, typeHome: Map<string, string>, findings: Finding[]): void {
  const names = new Map<string, number>();
  const wireNames = new Map<string, number>();
  const errorNames = new Set(raw.errors.map((e) => e.name));
  raw.methods.forEach((m, i) => {
    const at = `/methods/${i}`;
    const firstName = names.get(m.name);
    if (firstName !== undefined)
      findings.push({
        pointer: `${at}/name`,
        message: `method name "${m.name}" is already used by /methods/${firstName}`,
        hint: 'give every method a unique `name`',
      });
    else names.set(m.name, i);
    // A family of requests and a family of notifications may share a prefix: frames tell them apart.
    const wireKey = m.match === 'prefix' ? `${m.kind} ${m.method}*` : m.method;
    const firstWire = wireNames.get(wireKey);
    if (firstWire !== undefined)
      findings.push({
        pointer: `${at}/method`,
        message: `wire method "${m.method}" is already used by /methods/${firstWire}`,
        hint: 'give every method a unique `method`',
      });
    else wireNames.set(wireKey, i);
    for (const key of ['params', 'result'] as const) {
      const typeName = m[key];
      if (typeof typeName === 'string' && !typeHome.has(typeName)) {
        findings.push({
          pointer: `${at}/${key}`,
          message: `unknown type "${typeName}"`,
          hint: `define "${typeName}" under /types, or name an existing type`,
        });
      }
    }
    (m.errors ?? []).forEach((e, j) => {
      if (!errorNames.has(e))
        findings.push({
          pointer: `${at}/errors/${j}`,
          message: `unknown error "${e}"`,
          hint: `use one of: ${[...errorNames].join(', ')}`,
        });
    });
  });
}

function checkErrors(raw: RawIdl, typeHome: Map<string, string>, findings: Finding[]): void {
  const codes = new Map<number, string>();
  const names = new Set<string>();
  raw.errors.forEach((e, i) => {
    if (names.has(e.name))
      findings.push({
        pointer: `/errors/${i}/name`,
        message: `error name "${e.name}" is defined twice`,
        hint: 'give every error a unique name',
      });
    names.add(e.name);
    const other = codes.get(e.code);
    if (other)
      findings.push({
        pointer: `/errors/${i}/code`,
        message: `code ${e.code} is already used by "${other}"`,
        hint: 'give every error a unique code',
      });
    codes.set(e.code, e.name);
    if (e.data && !typeHome.has(e.data))
      findings.push({
        pointer: `/errors/${i}/data`,
        message: `unknown type "${e.data}"`,
        hint: `define "${e.data}" under /errorData`,
      });
  });
  const reasons = new Set<string>();
  raw.diagnostics.forEach((d, i) => {
    if (reasons.has(d.reason))
      findings.push({
        pointer: `/diagnostics/${i}/reason`,
        message: `reason "${d.reason}" is defined twice`,
        hint: 'remove the duplicate',
      });
    reasons.add(d.reason);
  });
  const messageNames = new Map<string, string>();
  for (const m of collectMessages(raw)) {
    const other = messageNames.get(m.name);
    if (other)
      findings.push({
        pointer: m.pointer,
        message: `message name "${m.name}" is already used at ${other}`,
        hint: 'give every message of errors and diagnostics a unique name',
      });
    messageNames.set(m.name, m.pointer);
  }
}

/** Checks every `$ref` and forbids anonymous object types below the top of a type. */
function walkSchema(
  node: unknown,
  at: string,
  isTop: boolean,
  typeHome: Map<string, string>,
  findings: Finding[],
): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkSchema(item, `${at}/${i}`, false, typeHome, findings));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as SchemaNode;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const name = refName(schema);
    if (name === null)
      findings.push({
        pointer: `${at}/$ref`,
        message: `reference "${ref}" does not start with ${REF_PREFIX}`,
        hint: `write references as "${REF_PREFIX}<TypeName>"`,
      });
    else if (!typeHome.has(name))
      findings.push({
        pointer: `${at}/$ref`,
        message: `reference to unknown type "${name}"`,
        hint: `define "${name}" under /types or /vocabulary, or fix the name`,
      });
  }
  if (!isTop && schema['properties'] !== undefined) {
    findings.push({
      pointer: at,
      message: 'anonymous object type',
      hint: 'move this object to a named type under /types or /vocabulary and refer to it with $ref, so every language gets the same class name',
    });
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples' || key === 'const' || key === 'enum' || key.startsWith('x-')) continue;
    if (key === 'properties' && isTop) {
      for (const [prop, propSchema] of Object.entries(value as Record<string, SchemaNode>)) {
        const propAt = `${at}/properties/${pathToPointer([prop]).slice(1)}`;
        if (typeof propSchema !== 'object') continue; // `false`: the property must be absent
        if (refName(propSchema) === null && typeof propSchema['description'] !== 'string') {
          findings.push({
            pointer: propAt,
            message: `property "${prop}" has no description`,
            hint: 'add a "description": it becomes the doc comment in every language',
          });
        }
        walkSchema(propSchema, propAt, false, typeHome, findings);
      }
      continue;
    }
    walkSchema(value, `${at}/${key}`, false, typeHome, findings);
  }
}
