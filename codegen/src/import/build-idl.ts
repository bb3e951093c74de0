// A source schema and its import settings → the IDL document, in the IDL's section order, then as
// the text `idl-gen import` writes (formatted as the repository formats JSON).
import { relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { join } from 'node:path';
import type { SchemaNode } from '../idl/model.js';
import { camelCase } from '../idl/names.js';
import type { ImportedMethod } from './collect-methods.js';
import { collectMethods, ImportError } from './collect-methods.js';
import { exampleOf } from './examples.js';
import { TypeLowerer } from './lower-types.js';
import { optionsOf } from './lower-enums.js';
import type { ImportSettings } from './settings.js';
import type { SourceSchema } from './source-schema.js';

export interface ImportedIdl {
  readonly document: Record<string, unknown>;
  /** Wire names of the methods, for the command's report. */
  readonly methods: readonly ImportedMethod[];
}

/** `idlPath` is where the IDL goes, relative to the repository root (its `$schema` is relative to it). */
export function buildIdl(
  source: SourceSchema,
  settings: ImportSettings,
  idlPath: string,
): ImportedIdl {
  const lower = new TypeLowerer(source, settings);
  // Payloads by their source names, lowered in method order: each takes its IDL name.
  const methods = collectMethods(source, settings).map((m) => ({
    ...m,
    params: m.params === null ? null : lower.definition(m.params),
    ...(m.result ? { result: lower.definition(m.result) } : {}),
  }));
  const types: Record<string, SchemaNode> = {};
  for (const [name, schema] of lower.types)
    types[name] = { ...schema, examples: exampleOf(name, lower.types, settings.examples) };
  for (const name of Object.keys(settings.examples))
    if (!lower.types.has(name))
      throw new ImportError(
        `${settings.path}: "examples" names ${name}, which is no imported type`,
      );
  const schemaPath = relative(join(idlPath, '..'), 'codegen/idl.schema.json').split('\\').join('/');
  const document = {
    $schema: schemaPath.startsWith('.') ? schemaPath : `./${schemaPath}`,
    $comment: `Imported by \`idl-gen import\` from ${source.label}, as ${settings.path} says: do not edit; change that file (or the pinned version) and run \`pnpm idl:import\`.`,
    meta: settings.meta,
    methods,
    types,
    vocabulary: {},
    errors: errorCodes(source, settings),
    errorData: {},
    diagnostics: [],
  };
  return { document, methods };
}

/** The error codes: each `const` option of the definition the settings name, its title its name. */
function errorCodes(source: SourceSchema, settings: ImportSettings): SchemaNode[] {
  if (settings.errorCodes === null) return [];
  const definition = source.definitions[settings.errorCodes];
  const options = definition ? optionsOf(definition) : null;
  if (!options)
    throw new ImportError(
      `${settings.path}: "errorCodes" names ${settings.errorCodes}, which is no anyOf/oneOf definition of ${source.label}`,
    );
  return options
    .filter((o) => typeof o['const'] === 'number' && typeof o['title'] === 'string')
    .map((o) => {
      const title = String(o['title']);
      const description = String(o['description'] ?? title).replace(/^\*\*[^*]+\*\*:\s*/, '');
      return {
        name: camelCase(title.toLowerCase().replace(/\s+/g, '-')),
        code: o['const'],
        message: title,
        description,
      };
    });
}

/** The document as the file holds it: formatted as the repository's prettier formats JSON. */
export async function idlText(document: object, root: string): Promise<string> {
  const config = (await resolveConfig(join(root, 'package.json'))) ?? {};
  return format(JSON.stringify(document, null, 2), { ...config, parser: 'json' });
}
