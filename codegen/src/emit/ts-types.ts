// Schema bundle → TypeScript payload types, by json-schema-to-typescript.
// Each definition is compiled on its own (references printed by name) so the output follows IDL order
// and includes types no frame reaches, such as the -32602 violation list.
import { compile, type Options } from 'json-schema-to-typescript';
import type { Emitter } from './emitter.js';
import { TS_GEN_DIR } from './emitter.js';
import { commentedHeader } from '../printer/generated-file.js';
import { withVersionDescriptions } from '../schema/version-descriptions.js';
import { jsdocTags, withJsdocTags } from './version-notes.js';

const OPTIONS: Partial<Options> = {
  bannerComment: '',
  additionalProperties: false,
  declareExternallyReferenced: false,
  enableConstEnums: false,
  ignoreMinAndMaxItems: true,
  format: true, // indents members, so top-level declarations are the only lines starting at column 0
  unknownAny: true,
};

export const tsTypesEmitter: Emitter = {
  name: 'ts-types',
  async emit({ bundle: plain, model }) {
    const bundle = withVersionDescriptions(plain, model, withJsdocTags, (value, item) =>
      [`\`${value}\`:`, ...jsdocTags(item).map((tag) => tag.replace(/^@(\w+)/, '$1'))].join(' '),
    );
    const { definitions: annotated, ...root } = bundle;
    const definitions = withoutIdlAnnotations(annotated);
    const declared = new Map<string, string>();
    const compileOne = async (schema: object, name: string) => {
      const source = await compile(
        { ...structuredClone(schema), definitions: structuredClone(definitions) } as never,
        name,
        OPTIONS,
      );
      for (const declaration of splitDeclarations(source)) {
        if (!declared.has(declaration.name)) declared.set(declaration.name, declaration.text);
      }
    };
    await compileOne(root, 'ProtocolFrame');
    for (const [name, schema] of Object.entries(definitions)) await compileOne(schema, name);
    const content = [commentedHeader('ts-types', 'ts'), ...declared.values()].join('\n\n');
    return [{ path: `${TS_GEN_DIR}/types.gen.ts`, content, language: 'ts' }];
  },
};

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
