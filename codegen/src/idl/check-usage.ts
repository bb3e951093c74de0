// Checks that need the whole IDL: every type is reachable from a method or an error, and every
// example matches its type's schema.
import AjvModule from 'ajv';
import { IN_MEMORY_SCHEMA_ID, buildSchemaBundle } from '../schema/bundle.js';
import type { RawIdl } from './build-model.js';
import { TYPE_SECTIONS } from './build-model.js';
import type { Finding } from './check.js';
import type { Model } from './model.js';
import { REF_PREFIX, refName } from './model.js';

const Ajv = AjvModule.default;

export function checkUnused(raw: RawIdl, typeHome: Map<string, string>, findings: Finding[]): void {
  const reached = new Set<string>();
  const visit = (name: string | null | undefined) => {
    if (!name || reached.has(name)) return;
    reached.add(name);
    const schema = TYPE_SECTIONS.map((s) => raw[s][name]).find((v) => v !== undefined);
    collectRefs(schema).forEach(visit);
  };
  for (const m of raw.methods) {
    visit(m.params);
    visit(m.result);
  }
  for (const e of raw.errors) visit(e.data);
  for (const [name, at] of typeHome) {
    if (!reached.has(name))
      findings.push({
        pointer: at,
        message: `type "${name}" is not used by any method or error`,
        hint: 'refer to it from a payload, or delete it',
      });
  }
}

function collectRefs(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, into));
  else if (typeof node === 'object' && node !== null) {
    const name = refName(node);
    if (name) into.push(name);
    for (const [key, value] of Object.entries(node))
      if (key !== 'examples') collectRefs(value, into);
  }
  return into;
}

export function checkExamples(
  model: Model,
  typeHome: Map<string, string>,
  findings: Finding[],
): void {
  // `format` is an annotation (idl.schema.json): examples are not checked against it.
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema(buildSchemaBundle(model, IN_MEMORY_SCHEMA_ID));
  for (const type of model.types) {
    const validate = ajv.getSchema(`${IN_MEMORY_SCHEMA_ID}${REF_PREFIX}${type.name}`);
    type.examples.forEach((example, i) => {
      if (validate && !validate(example)) {
        const first = validate.errors?.[0];
        findings.push({
          pointer: `${typeHome.get(type.name) ?? ''}/examples/${i}`,
          message:
            `example does not match ${type.name}: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim(),
          hint: 'fix the example or the schema so they agree',
        });
      }
    });
  }
}
