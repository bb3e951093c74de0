// Schema bundle → TypeScript payload types, by json-schema-to-typescript.
// Each definition is compiled on its own (references printed by name) so the output follows IDL order
// and includes types no frame reaches, such as the -32602 violation list.
import { DEFAULT_OPTIONS, compile, type Options } from 'json-schema-to-typescript';
import { format } from 'prettier';
import { refName } from '../idl/model.js';
import type { Emitter } from './emitter.js';
import { tsTarget } from './emitter.js';
import { commentedHeader } from '../printer/generated-file.js';
import { withVersionDescriptions } from '../schema/version-descriptions.js';
import { jsdocTags, withJsdocTags } from './version-notes.js';

const OPTIONS: Partial<Options> = {
  bannerComment: '',
  additionalProperties: false,
  declareExternallyReferenced: false,
  enableConstEnums: false,
  ignoreMinAndMaxItems: true,
  // Formatted once, all declarations together (below): prettier per compile was half the time.
  format: false,
  unknownAny: true,
};

export const tsTypesEmitter: Emitter = {
  name: 'ts-types',
  target: 'typescript',
  async emit({ bundle: plain, model, target }) {
    const bundle = withVersionDescriptions(plain, model, withJsdocTags, (value, item) =>
      [`\`${value}\`:`, ...jsdocTags(item).map((tag) => tag.replace(/^@(\w+)/, '$1'))].join(' '),
    );
    const { definitions: annotated, ...root } = bundle;
    const definitions = withoutIdlAnnotations(annotated);
    // Each definition is compiled with the definitions it reaches only: with all of them, every
    // compile resolved the whole bundle again (quadratic in the number of types).
    const compileOne = (schema: object, name: string) =>
      compile(
        {
          ...structuredClone(schema),
          definitions: reachableDefinitions(schema, definitions),
        } as never,
        name,
        OPTIONS,
      );
    const sources = [await compileOne(root, 'ProtocolFrame')];
    for (const [name, schema] of Object.entries(definitions))
      sources.push(await compileOne(schema as object, name));
    // Formatting indents members, so top-level declarations are the only lines at column 0.
    const formatted = await format(sources.join('\n'), {
      parser: 'typescript',
      ...DEFAULT_OPTIONS.style,
    });
    const declared = new Map<string, string>();
    for (const declaration of splitDeclarations(formatted)) {
      if (!declared.has(declaration.name)) declared.set(declaration.name, declaration.text);
    }
    const header = commentedHeader('ts-types', 'ts', target.idlPath);
    const content = [header, ...declared.values()].join('\n\n');
    return [{ path: `${tsTarget(target).genDir}/types.gen.ts`, content, language: 'ts' }];
  },
};

/** The definitions `schema` refers to, directly or through others, as copies. */
export function reachableDefinitions(
  schema: object,
  definitions: Record<string, unknown>,
): Record<string, unknown> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const name = refName(node);
    if (name !== null && !reached.has(name) && name in definitions) {
      reached.add(name);
      visit(definitions[name]);
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return Object.fromEntries(
    Object.keys(definitions)
      .filter((name) => reached.has(name))
      .map((name) => [name, structuredClone(definitions[name])]),
  );
}

/**
 * Splits json-schema-to-typescript output into its top-level declarations (doc comment included).
 * Compiling one definition at a time can declare a union it reaches again; the caller keeps the first.
 */
export function splitDeclarations(source: string): { name: string; text: string }[] {
  const chunks = source.split(/\n(?=\/\*\*|export )/);
  const declarations: { name: string; text: string }[] = [];
  let comment = '';
  for (const chunk of chunks) {
    if (chunk.startsWith('/**') && !/\nexport /.test(chunk)) {
      comment = chunk;
      continue;
    }
    const name = /^export (?:type|interface|declare const|const) (\w+)/m.exec(chunk)?.[1];
    if (name) declarations.push({ name, text: `${comment ? `${comment}\n` : ''}${chunk}`.trim() });
    comment = '';
  }
  return declarations;
}

/**
 * The definitions without the IDL's `x-` annotations: json-schema-to-typescript reads none of them
 * (known values reach it as `tsType`), and it would check an `x-known-values` entry as a schema
 * (a deprecated known value's `deprecated` object is not its boolean keyword).
 */
export function withoutIdlAnnotations<T>(node: T, isPropertyMap = false): T {
  if (Array.isArray(node)) return node.map((item) => withoutIdlAnnotations(item)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node)
    .filter(([key]) => isPropertyMap || !key.startsWith('x-'))
    .map(([key, value]) => [
      key,
      key === 'examples'
        ? value
        : withoutIdlAnnotations(value, !isPropertyMap && key === 'properties'),
    ]);
  return Object.fromEntries(entries) as T;
}
