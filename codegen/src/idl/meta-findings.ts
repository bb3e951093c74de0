// A meta-schema's ajv errors as findings: a JSON pointer, what is wrong and how to fix it. The IDL
// and the per-protocol targets file are both checked this way.
import type { ErrorObject } from 'ajv';
import type { Finding } from './check.js';

/** What the fixes say, per checked file kind. */
export interface MetaSchemaHints {
  /** The meta-schema, as a reader finds it (`codegen/idl.schema.json`). */
  readonly schemaFile: string;
  /** For a member the meta-schema does not know. */
  readonly unknownMember: string;
  /** For a member a `false` schema forbids. */
  readonly falseSchema: string;
  /** For a member a `not` schema forbids. */
  readonly notSchema: string;
}

export function metaSchemaFindings(
  errors: readonly ErrorObject[],
  hints: MetaSchemaHints,
): Finding[] {
  return simplify(errors).map((e) => toFinding(e, hints));
}

/** Drops the summary errors of if/oneOf/anyOf that only repeat what their branches said. */
function simplify(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept = errors.filter((e) => !['if', 'anyOf', 'oneOf', 'propertyNames'].includes(e.keyword));
  return kept.length > 0 ? kept : [...errors];
}

function toFinding(error: ErrorObject, hints: MetaSchemaHints): Finding {
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
        hint: `add "${String(params['missingProperty'])}" here (see ${hints.schemaFile})`,
      };
    case 'additionalProperties':
      return {
        pointer: `${error.instancePath}/${String(params['additionalProperty'])}`,
        message: `unknown member "${String(params['additionalProperty'])}"`,
        hint: hints.unknownMember,
      };
    case 'false schema':
      return {
        pointer: error.instancePath,
        message: 'this member is not allowed here',
        hint: hints.falseSchema,
      };
    case 'not':
      return {
        pointer: error.instancePath,
        message: 'this member is not allowed here',
        hint: hints.notSchema,
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
        hint: `see ${hints.schemaFile} for what is expected here`,
      };
  }
}

function describePattern(pattern: string): string {
  if (pattern === '^[A-Z][A-Za-z0-9]*$')
    return 'type names are PascalCase letters and digits, e.g. "SessionPromptParams"';
  if (pattern === '^[a-z][A-Za-z0-9]*$') return 'use a camelCase identifier, e.g. "sessionPrompt"';
  return `the value must match ${pattern}`;
}
