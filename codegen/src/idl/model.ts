// The typed, normalized model every emitter walks. Emitters never index the raw IDL JSON.

/** A JSON Schema fragment as written in the IDL. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** Who sends a method: the client, the server, or either end (`both`). */
export type Direction = 'clientToServer' | 'serverToClient' | 'both';
export type MethodKind = 'request' | 'notification';
export type TypeSection = 'types' | 'vocabulary' | 'errorData';

/** Why an item is deprecated and what replaces it. Deprecating is never a breaking change. */
export interface Deprecation {
  readonly reason: string;
  readonly replacement: string | null;
}

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
  /** The protocol version that introduced it (`since`; 1 when absent). */
  readonly since: number;
  readonly deprecated: Deprecation | null;
  /** The end that handles it may leave it unimplemented (IDL `optional`). */
  readonly isOptional: boolean;
  /** It stands for every wire name that starts with `wireName` (IDL `match: "prefix"`). */
  readonly isPrefix: boolean;
}

/** How a member is read when its value is not what its schema says (the IDL's lenient keywords). */
export interface Lenience {
  /** `x-deserialize-default-on-error`: a value that breaks the schema reads as the default. */
  readonly defaultOnError: boolean;
  /** `x-deserialize-skip-invalid-items`: an array item that breaks the item schema is dropped. */
  readonly skipInvalidItems: boolean;
  /** `x-deserialize-default-on-null`: `null` reads as the default. */
  readonly defaultOnNull: boolean;
}

/** One property of an object type. */
export interface Field {
  /** The wire (JSON) name. */
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
  readonly schema: SchemaNode;
  /** The named type this field refers to, directly or as array items (through `allOf` or a nullable `anyOf`). */
  readonly typeRef: string | null;
  readonly isArray: boolean;
  /** The schema admits `null` (`type: [..., "null"]`, or `anyOf` with `{ "type": "null" }`). */
  readonly isNullable: boolean;
  /** How it is read when invalid; null when it is read strictly. */
  readonly lenience: Lenience | null;
  /** The protocol version that introduced it (`x-since`; 1 when absent). */
  readonly since: number;
  readonly deprecated: Deprecation | null;
}

/** A variant of a union. */
export interface UnionVariant {
  readonly typeName: string;
  /** The discriminator value that selects it; null for the unknown or default variant, a nested union, or any variant of an untagged union. */
  readonly tag: string | null;
  /**
   * Properties whose presence also selects it: among variants sharing the tag (`x-select`), or, in
   * an untagged union, the required members no earlier variant requires.
   */
  readonly select: readonly string[];
  /** The default variant of a tagged union: it holds values without the discriminator. */
  readonly isDefault: boolean;
}

export interface Union {
  /** The member whose value tells the variants apart; null for an untagged union (`x-untagged`). */
  readonly discriminator: string | null;
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
  /** Object types: their own properties in IDL order. */
  readonly fields: readonly Field[];
  /** The types it extends (`allOf` of `$ref`s): a value is also one of each. */
  readonly bases: readonly string[];
  /** Union types: their variants in IDL order. */
  readonly union: Union | null;
  /** Closed enums: the allowed values; open enums: the known ones. */
  readonly values: readonly EnumValue[];
  /** Whether it is the unknown variant of an open union. */
  readonly isUnknownVariant: boolean;
  /** Name of the constant emitted for a `const` type, if any. */
  readonly constantName: string | null;
}

/** A value of an enum; `since` and `deprecated` come from an open enum's `x-known-values` entry. */
export interface EnumValue {
  readonly value: string;
  readonly description: string | null;
  readonly since: number;
  readonly deprecated: Deprecation | null;
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
  /** Its one message (named after the reason), when it is reported in one situation only. */
  readonly message?: string;
  /** Its messages by name, when it is reported in several situations. */
  readonly messages?: Readonly<Record<string, string>>;
  readonly description: string;
}

/**
 * A message text written on the wire or in a diagnostic (IDL `errors[].messages`,
 * `diagnostics[].message` and `diagnostics[].messages`), with `{name}` placeholders.
 */
export interface MessageDef {
  /** camelCase, unique across the IDL: the constant's name in every language. */
  readonly name: string;
  readonly template: string;
  /** The placeholders' names, in order of first appearance. */
  readonly placeholders: readonly string[];
  /** Where the message is written in the IDL (a JSON pointer). */
  readonly pointer: string;
  /** What it is sent with: `error -32601 (methodNotFound)` or `diagnostic frame-too-large`. */
  readonly owner: string;
}

export interface Meta {
  readonly name: string;
  readonly title: string;
  readonly version: string;
  /** The latest protocol version the IDL describes (`meta.protocolVersion`; 1 when absent). */
  readonly protocolVersion: number;
  readonly description: string;
  readonly defaultMaxFrameBytes: number;
  /** The deepest a line may nest, the frame object counting as level 1. */
  readonly maxNestingDepth: number;
  /** The largest magnitude of any number a payload carries (2^53−1). */
  readonly maxSafeInteger: number;
}

/** What an arrow of a sequence diagram shows of its payload: members by name, some with a value. */
export interface StepFacts {
  readonly members: readonly string[];
  /** Dotted paths into the params or result (the event data, for one event) and their values. */
  readonly values: readonly (readonly [string, string | number | boolean])[];
  readonly note: string | null;
}

/** One arrow, note or block of a sequence diagram (`sequences` in the IDL). */
export type SequenceStep =
  | ({ readonly kind: 'request' | 'result'; readonly method: string } & StepFacts)
  | ({ readonly kind: 'error'; readonly method: string; readonly code: string } & StepFacts)
  | ({
      readonly kind: 'notification';
      readonly method: string;
      /** For `session.event`: the event types shown, in order. */
      readonly events: readonly string[];
    } & StepFacts)
  | { readonly kind: 'note'; readonly text: string; readonly over: 'client' | 'runtime' | 'both' }
  | { readonly kind: 'opt'; readonly label: string; readonly steps: readonly SequenceStep[] }
  | {
      readonly kind: 'alt';
      readonly branches: readonly {
        readonly label: string;
        readonly steps: readonly SequenceStep[];
      }[];
    };

/** A sequence diagram, as data the checker ties to the rest of the IDL. */
export interface Sequence {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The protocol version whose behaviour it shows (1 when absent). */
  readonly since: number;
  readonly steps: readonly SequenceStep[];
}

/** A flag of `initialize`'s capabilities: the version that added it and the methods it guards. */
export interface Capability {
  /** The flag's wire name, e.g. `sessionInterrupt`. */
  readonly name: string;
  readonly type: 'boolean';
  /** The protocol version that added it (1 when absent). */
  readonly since: number;
  /** Wire names of the methods a client calls only when the runtime reported the flag. */
  readonly guards: readonly string[];
  readonly description: string;
}

/** The whole protocol. Order everywhere follows the IDL. */
export interface Model {
  readonly meta: Meta;
  readonly methods: readonly Method[];
  readonly types: readonly TypeDef[];
  readonly errors: readonly ErrorCodeDef[];
  readonly diagnostics: readonly DiagnosticDef[];
  /** Every message of `errors` and `diagnostics`, errors first, in IDL order. */
  readonly messages: readonly MessageDef[];
  readonly sequences: readonly Sequence[];
  readonly capabilities: readonly Capability[];
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

/**
 * The type a member's schema names however it is written: a `$ref`, a `$ref` wrapped in `allOf`
 * (so siblings such as `description` apply), or either beside `{ "type": "null" }` in `anyOf`.
 */
export function refTarget(node: unknown): string | null {
  const direct = refName(node);
  if (direct !== null || typeof node !== 'object' || node === null) return direct;
  const schema = node as SchemaNode;
  const allOf = schema['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1) return refTarget(allOf[0]);
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const other = anyOf.filter((option) => !isNullSchema(option));
    if (other.length === 1) return refTarget(other[0]);
  }
  return null;
}

/** `{ "type": "null" }`. */
export function isNullSchema(node: unknown): boolean {
  return typeof node === 'object' && node !== null && (node as SchemaNode)['type'] === 'null';
}

/** Which ends send a method: the client for `clientToServer` and `both`, the server for the others. */
export function isSentBy(m: Method, end: 'client' | 'server'): boolean {
  return (
    m.direction === 'both' ||
    m.direction === (end === 'client' ? 'clientToServer' : 'serverToClient')
  );
}
