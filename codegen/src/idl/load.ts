// Read and validate the IDL. Nothing downstream runs unless this returns a Model.
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import type { RawIdl } from './build-model.js';
import { buildModel } from './build-model.js';
import { checkCapabilities, withCapabilityProperties } from './capabilities.js';
import { checkIdl, type Finding } from './check.js';
import type { Model } from './model.js';
import { metaSchemaFindings } from './meta-findings.js';
import { IdlError, parseIdlSource, type IdlProblem, type IdlSource } from './source.js';

const Ajv = AjvModule.default;
const metaSchemaUrl = new URL('../../idl.schema.json', import.meta.url);

export function loadIdlFile(path: string, displayPath = path): Model {
  return loadIdlText(readFileSync(path, 'utf8'), displayPath);
}

/** Parses, checks against the meta-schema, then checks what a schema cannot; throws IdlError with every problem. */
export function loadIdlText(text: string, displayPath: string): Model {
  const source = parseIdlSource(displayPath, text);
  const metaFindings = checkMetaSchema(source.value);
  if (metaFindings.length > 0) throw locate(source, metaFindings);
  const written = source.value as RawIdl;
  const capabilityFindings: Finding[] = [];
  checkCapabilities(written, capabilityFindings);
  if (capabilityFindings.length > 0) throw locate(source, capabilityFindings);
  const raw = withCapabilityProperties(written);
  const findings = checkIdl(raw);
  if (findings.length > 0) throw locate(source, findings);
  return buildModel(raw);
}

function locate(source: IdlSource, findings: readonly Finding[]): IdlError {
  const problems: IdlProblem[] = findings.map((f) => ({ ...f, ...source.locate(f.pointer) }));
  return new IdlError(source.path, problems);
}

/** What the IDL's meta-schema errors say to fix. */
const IDL_HINTS = {
  schemaFile: 'codegen/idl.schema.json',
  unknownMember: 'remove it or fix its spelling; extensions to a type schema start with "x-"',
  falseSchema: 'remove it (notifications have no `result` or `errors`)',
  notSchema: "remove it; a type's title is its name",
};

let validateMeta: ReturnType<InstanceType<typeof Ajv>['compile']> | undefined;

function checkMetaSchema(value: unknown): Finding[] {
  if (!validateMeta) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validateMeta = ajv.compile(JSON.parse(readFileSync(metaSchemaUrl, 'utf8')) as object);
  }
  if (validateMeta(value)) return [];
  return metaSchemaFindings(validateMeta.errors ?? [], IDL_HINTS);
}
