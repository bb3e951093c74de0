// The typed, normalized model every emitter walks. Emitters never index the raw IDL JSON.

/** A JSON Schema fragment as written in the IDL. */
export type SchemaNode = { readonly [keyword: string]: unknown };

export type Direction = 'clientToServer' | 'serverToClient';
export type MethodKind = 'request' | 'notification';
export type TypeSection = 'types' | 'vocabulary' | 'errorData';

/** A protocol method: its generated name, wire name, direction, kind and payload types. */
export interface Method {
  /** camelCase identifier for generated code, e.g. `sessionPrompt`. */
  readonly name: string;
  /** The wire name, e.g. `session/prompt`. */
  readonly wireName: string;
  readonly direction: Direction;
  readonly kind: MethodKind;
  /** Params type name, or null when the method takes no params. */
  readonly params: string | null;
  /** Result type name (requests only). */
  readonly result: string | null;
  /** Names of the error codes this method may answer with. */
  readonly errors: readonly string[];
  readonly description: string;
}

/** One property of an object type. */
export interface Field {
  /** The wire (JSON) name. */
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
  readonly schema: SchemaNode;
  /** The named type this field refers to, directly or as array items. */
  readonly typeRef: string | null;
  readonly isArray: boolean;
}

/** A variant of a discriminated union. */
export interface UnionVariant {
  readonly typeName: string;
  /** The discriminator value that selects it; null for the unknown variant or a nested union. */
  readonly tag: string | null;
  /** Properties whose presence also selects it, among variants sharing the tag. */
  readonly select: readonly string[];
}

export interface Union {
  readonly discriminator: string;
  readonly isOpen: boolean;
  readonly variants: readonly UnionVariant[];
}

export type TypeKind = 'object' | 'union' | 'enum' | 'openEnum' | 'scalar' | 'array';

/** A named type of the IDL. */
export interface TypeDef {
  readonly name: string;
  readonly section: TypeSection;
  readonly kind: TypeKind;
  readonly description: string;
  readonly schema: SchemaNode;
  readonly examples: readonly unknown[];
  /** Object types: their properties in IDL order. */
  readonly fields: readonly Field[];
  /** Union types: their variants in IDL order. */
  readonly union: Union | null;
  /** Closed enums: the allowed values; open enums: the known ones. */
  readonly values: readonly { value: string; description: string | null }[];
  /** Whether it is the unknown variant of an open union. */
  readonly isUnknownVariant: boolean;
  /** Name of the constant emitted for a `const` type, if any. */
  readonly constantName: string | null;
}

export interface ErrorCodeDef {
  readonly name: string;
  readonly code: number;
  readonly message: string;
  readonly dataType: string | null;
  readonly description: string;
}

export interface DiagnosticDef {
  readonly reason: string;
  readonly description: string;
}

export interface Meta {
  readonly name: string;
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly defaultMaxFrameBytes: number;
  /** The deepest a line may nest, the frame object counting as level 1. */
  readonly maxNestingDepth: number;
  /** The largest magnitude of any number a payload carries (2^53−1). */
  readonly maxSafeInteger: number;
}

/** The whole protocol. Order everywhere follows the IDL. */
export interface Model {
  readonly meta: Meta;
  readonly methods: readonly Method[];
  readonly types: readonly TypeDef[];
  readonly errors: readonly ErrorCodeDef[];
  readonly diagnostics: readonly DiagnosticDef[];
}

export function findType(model: Model, name: string): TypeDef {
  const found = model.types.find((t) => t.name === name);
  if (!found) throw new Error(`unknown type ${name}`);
  return found;
}

export function requests(model: Model): Method[] {
  return model.methods.filter((m) => m.kind === 'request');
}

export function notifications(model: Model): Method[] {
  return model.methods.filter((m) => m.kind === 'notification');
}

export const REF_PREFIX = '#/definitions/';

/** The type name a `$ref` points at, or null when `node` is not a reference. */
export function refName(node: unknown): string | null {
  if (typeof node !== 'object' || node === null) return null;
  const ref = (node as SchemaNode)['$ref'];
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX)
    ? ref.slice(REF_PREFIX.length)
    : null;
}
