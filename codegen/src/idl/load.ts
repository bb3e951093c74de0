// Read and validate the IDL. Nothing downstream runs unless this returns a Model.
import { readFileSync } from 'node:fs';
import AjvModule, { type ErrorObject } from 'ajv';
import type { RawIdl } from './build-model.js';
import { buildModel } from './build-model.js';
import { checkCapabilities, withCapabilityProperties } from './capabilities.js';
import { checkIdl, type Finding } from './check.js';
import type { Model } from './model.js';
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

let validateMeta: ReturnType<InstanceType<typeof Ajv>['compile']> | undefined;

function checkMetaSchema(value: unknown): Finding[] {
  if (!validateMeta) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validateMeta = ajv.compile(JSON.parse(readFileSync(metaSchemaUrl, 'utf8')) as object);
  }
  if (validateMeta(value)) return [];
  return simplify(validateMeta.errors ?? []).map(toFinding);
}

/** Drops the summary errors of if/oneOf/anyOf that only repeat what their branches said. */
function simplify(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept = errors.filter((e) => !['if', 'anyOf', 'oneOf', 'propertyNames'].includes(e.keyword));
  return kept.length > 0 ? kept : [...errors];
}

function toFinding(error: ErrorObject): Finding {
  const params = error.params as Record<string, unknown>;
  if (error.propertyName !== undefined) {
    return {
      pointer: `${error.instancePath}/${error.propertyName}`,
      message: `bad name "${error.propertyName}": ${error.message ?? ''}`.trim(),
      hint: describePattern(String(params['pattern'] ?? '')),
    };
  }
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${error.instancePath}/${String(params['missingProperty'])}`,
        message: `missing required member "${String(params['missingProperty'])}"`,
        hint: `add "${String(params['missingProperty'])}" here (see codegen/idl.schema.json)`,
      };
    case 'additionalProperties':
      return {
        pointer: `${error.instancePath}/${String(params['additionalProperty'])}`,
        message: `unknown member "${String(params['additionalProperty'])}"`,
        hint: 'remove it or fix its spelling; extensions to a type schema start with "x-"',
      };
    case 'false schema':
      return {
        pointer: error.instancePath,
        message: 'this member is not allowed here',
        hint: 'remove it (notifications have no `result` or `errors`)',
      };
    case 'not':
      return {
        pointer: error.instancePath,
        message: 'this member is not allowed here',
        hint: "remove it; a type's title is its name",
      };
    case 'pattern':
      return {
        pointer: error.instancePath,
        message: `${error.message ?? 'bad value'}`,
        hint: describePattern(String(params['pattern'])),
      };
    case 'enum':
      return {
        pointer: error.instancePath,
        message: 'value is not allowed',
        hint: `use one of: ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    default:
      return {
        pointer: error.instancePath,
        message: error.message ?? error.keyword,
        hint: 'see codegen/idl.schema.json for what is expected here',
      };
  }
}

function describePattern(pattern: string): string {
  if (pattern === '^[A-Z][A-Za-z0-9]*$')
    return 'type names are PascalCase letters and digits, e.g. "SessionPromptParams"';
  if (pattern === '^[a-z][A-Za-z0-9]*$') return 'use a camelCase identifier, e.g. "sessionPrompt"';
  return `the value must match ${pattern}`;
}
