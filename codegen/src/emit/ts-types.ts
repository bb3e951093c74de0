// Schema bundle → TypeScript payload types, by json-schema-to-typescript.
// Each definition is compiled on its own (references printed by name) so the output follows IDL order
// and includes types no frame reaches, such as the -32602 violation list.
import { DEFAULT_OPTIONS, compile, type Options } from 'json-schema-to-typescript';
import { format } from 'prettier';
import { refName } from '../idl/model.js';
import type { Emitter } from './emitter.js';
import { tsTarget } from './emitter.js';
import { commentedHeader } from '../printer/generated-file.js';
import { UNKNOWN_VALUE_TYPE } from '../schema/bundle.js';
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
  async emit({ bundle: plain, model, target, format: formatted }) {
    const bundle = withVersionDescriptions(plain, model, withJsdocTags, (value, item) =>
      [`\`${value}\`:`, ...jsdocTags(item).map((tag) => tag.replace(/^@(\w+)/, '$1'))].join(' '),
    );
    const { definitions: annotated, ...root } = bundle;
    const definitions = withoutIdlAnnotations(annotated);
    // Each definition on its own, its references printed by name: nothing is resolved again.
    const compileOne = (schema: object, name: string) =>
      compile(refsAsNames(schema) as never, name, OPTIONS);
    const sources = [await compileOne(root, 'ProtocolFrame')];
    for (const [name, schema] of Object.entries(definitions))
      sources.push(await compileOne(schema as object, name));
    // Formatting indents members, so top-level declarations are the only lines at column 0. Done
    // as the repository formats TypeScript, the declarations need no second pass.
    const joined = sources.join('\n');
    const text = formatted
      ? await formatted(joined, 'ts')
      : await format(joined, { parser: 'typescript', ...DEFAULT_OPTIONS.style });
    const texts = new Map(splitDeclarations(text).map((d) => [d.name, d.text]));
    const order = declarationOrder(['ProtocolFrame', ...Object.keys(definitions)], definitions);
    const header = commentedHeader('ts-types', 'ts', target.idlPath);
    // The unknown-value type is declared where open enums or open unions name it.
    const unknownValue = joined.includes(UNKNOWN_VALUE_TYPE) ? [UNKNOWN_VALUE] : [];
    const declarations = order.map((name) => texts.get(name) ?? '');
    const content = [header, ...unknownValue, ...declarations].join('\n\n');
    const path = `${tsTarget(target).genDir}/types.gen.ts`;
    return [
      formatted
        ? { path, content: `${content}\n`, language: 'ts', isFormatted: true }
        : { path, content, language: 'ts' },
    ];
  },
};

/** The declaration of the type that open enums' and open unions' `tsType` name. */
const UNKNOWN_VALUE = `declare const unknownValue: unique symbol;

/**
 * A value of an open enum, or the tag of an open union's unknown variant, that this protocol version does not know, passed on unchanged. It is a string at runtime: read it with \`String(value)\` or in a template. No string literal is assignable or comparable to it, so a comparison with a value the type does not list (\`kind === 'timeout'\`) fails to compile, and a \`switch\` over the known values narrows, its \`default\` keeping the unknown ones. To send a value this version does not know, convert it: \`'custom' as unknown as ${UNKNOWN_VALUE_TYPE}\`.
 */
export interface ${UNKNOWN_VALUE_TYPE} extends String {
  readonly [unknownValue]: true;
}`;

/**
 * A copy of `schema` whose references are leaves that print the referenced type's name (`tsType`):
 * json-schema-to-typescript then resolves nothing, so each compile costs what its own schema does
 * (compiled with the definitions it reaches, a union reaching half the protocol was resolved again
 * for every type that reaches it).
 */
export function refsAsNames<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => refsAsNames(item)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const name = refName(node);
  if (name !== null) {
    const { $ref: _ref, ...siblings } = node as Record<string, unknown>;
    return { ...refsAsNames(siblings), tsType: name } as T;
  }
  const entries = Object.entries(node).map(([key, value]) => [
    key,
    key === 'examples' ? value : refsAsNames(value),
  ]);
  return Object.fromEntries(entries) as T;
}

/**
 * IDL order, except that a union's member unions follow it (json-schema-to-typescript declared
 * them so when each definition was compiled with the definitions it reaches; the order stays).
 */
export function declarationOrder(
  names: readonly string[],
  definitions: Record<string, unknown>,
): string[] {
  const unionMembers = (name: string): string[] => {
    const anyOf = (definitions[name] as { anyOf?: unknown } | undefined)?.anyOf;
    return Array.isArray(anyOf) ? anyOf.map(refName).filter((m): m is string => m !== null) : [];
  };
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (name: string, visited: Set<string>): void => {
    if (!placed.has(name)) {
      placed.add(name);
      order.push(name);
    }
    for (const member of unionMembers(name)) {
      if (visited.has(member)) continue;
      visited.add(member);
      if (unionMembers(member).length > 0) place(member, visited);
    }
  };
  for (const name of names) place(name, new Set([name]));
  return order;
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

/** The IDL's TypeScript type of a type or member, where it differs from the schema's. */
const TS_TYPE_ANNOTATION = 'x-ts-type';

/**
 * The definitions without the IDL's `x-` annotations: json-schema-to-typescript reads none of them
 * (known values reach it as `tsType`), and it would check an `x-known-values` entry as a schema
 * (a deprecated known value's `deprecated` object is not its boolean keyword). `x-ts-type`
 * becomes the `tsType` it reads.
 */
export function withoutIdlAnnotations<T>(node: T, isPropertyMap = false): T {
  if (Array.isArray(node)) return node.map((item) => withoutIdlAnnotations(item)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(withDefaultInDescription(node, isPropertyMap))
    .filter(([key]) => isPropertyMap || key === TS_TYPE_ANNOTATION || !key.startsWith('x-'))
    .map(([key, value]) => [
      !isPropertyMap && key === TS_TYPE_ANNOTATION ? 'tsType' : key,
      key === 'examples'
        ? value
        : withoutIdlAnnotations(value, !isPropertyMap && key === 'properties'),
    ]);
  return Object.fromEntries(entries) as T;
}

/**
 * `default` becomes a `@default` tag of the description: json-schema-to-typescript would infer a
 * type from it (`Mode & string`), and a default says how a reader fills an absent member, not
 * what the member may hold.
 */
function withDefaultInDescription(node: object, isPropertyMap: boolean): object {
  if (isPropertyMap || !('default' in node)) return node;
  const { default: value, ...rest } = node as Record<string, unknown>;
  const description = typeof rest['description'] === 'string' ? `${rest['description']}\n` : '';
  return { ...rest, description: `${description}@default ${JSON.stringify(value)}` };
}
