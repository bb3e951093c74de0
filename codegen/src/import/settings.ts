// protocol.import.json: the pinned source schema and what the importer needs to know that the
// schema does not say, read into a typed object; checked against codegen/import.schema.json with
// located errors.
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import type { Direction, MethodKind, SchemaNode } from '../idl/model.js';
import { metaSchemaFindings } from '../idl/meta-findings.js';
import { IdlError, parseIdlSource } from '../idl/source.js';

const Ajv = AjvModule.default;
const metaSchemaUrl = new URL('../../import.schema.json', import.meta.url);

/** A family of methods the annotations do not describe (extension methods). */
export interface ExtensionMethod {
  readonly name: string;
  readonly prefix: string;
  readonly direction: Direction;
  readonly kind: MethodKind;
  readonly params: string;
  readonly result?: string;
  readonly description: string;
}

export interface ImportSettings {
  /** The settings file, relative to the repository root (named in the IDL's `$comment`). */
  readonly path: string;
  readonly source: {
    readonly package: string;
    readonly version: string;
    readonly file: string;
    readonly resolveFrom: string;
  };
  readonly meta: SchemaNode;
  readonly annotations: { readonly method: string; readonly side: string };
  readonly sides: Readonly<Record<string, Direction>>;
  readonly errorCodes: string | null;
  readonly extensions: readonly ExtensionMethod[];
  readonly optionalMethods: readonly string[];
  readonly methodNames: Readonly<Record<string, string>>;
  readonly definitionNames: Readonly<Record<string, string>>;
  readonly typeNames: Readonly<Record<string, string>>;
  readonly descriptions: Readonly<Record<string, string>>;
  readonly examples: Readonly<Record<string, readonly unknown[]>>;
}

type RawSettings = Partial<Omit<ImportSettings, 'path'>> &
  Pick<ImportSettings, 'source' | 'meta' | 'annotations' | 'sides'>;

let validateSettings: ReturnType<InstanceType<typeof Ajv>['compile']> | undefined;

const HINTS = {
  schemaFile: 'codegen/import.schema.json',
  unknownMember: 'remove it or fix its spelling (codegen/import.schema.json lists every member)',
  falseSchema: 'remove it',
  notSchema: 'remove it',
};

export function loadImportSettings(path: string, displayPath: string): ImportSettings {
  const source = parseIdlSource(displayPath, readFileSync(path, 'utf8'));
  validateSettings ??= new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(metaSchemaUrl, 'utf8')) as object,
  );
  if (!validateSettings(source.value)) {
    const findings = metaSchemaFindings(validateSettings.errors ?? [], HINTS);
    throw new IdlError(
      displayPath,
      findings.map((f) => ({ ...f, ...source.locate(f.pointer) })),
    );
  }
  const raw = source.value as RawSettings;
  return {
    path: displayPath,
    source: raw.source,
    meta: raw.meta,
    annotations: raw.annotations,
    sides: raw.sides,
    errorCodes: raw.errorCodes ?? null,
    extensions: raw.extensions ?? [],
    optionalMethods: raw.optionalMethods ?? [],
    methodNames: raw.methodNames ?? {},
    definitionNames: raw.definitionNames ?? {},
    typeNames: raw.typeNames ?? {},
    descriptions: raw.descriptions ?? {},
    examples: raw.examples ?? {},
  };
}
