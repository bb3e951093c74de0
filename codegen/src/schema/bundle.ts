// IDL model → one JSON Schema document: every named type under definitions plus one schema per frame.
// ajv, json-schema-to-typescript and datamodel-code-generator all read this same document.
import type { Method, Model, SchemaNode, TypeDef } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';

export type SchemaBundle = {
  $schema: string;
  $id: string;
  $comment?: string;
  title: string;
  description: string;
  'x-protocol-version': string;
  anyOf: SchemaNode[];
  definitions: Record<string, SchemaNode>;
};

/** Definitions the bundle adds itself (the JSON-RPC envelope): no IDL type may take these names. */
export const ENVELOPE_NAMES: readonly string[] = [
  'RequestId',
  'JsonRpcVersion',
  'ResponseError',
  'ErrorResponseFrame',
  'ProtocolFrame',
];

/** The `$id` of a bundle checked in memory only (examples, the breaking check's samples). */
export const IN_MEMORY_SCHEMA_ID = 'https://dsh-sdk.dev/in-memory.schema.json';

const ref = (name: string): SchemaNode => ({ $ref: REF_PREFIX + name });

/** Names of the frame schemas of a method, in the order they are emitted. */
export function frameNames(method: Method): {
  request?: string;
  response?: string;
  notification?: string;
} {
  const base = pascalCase(method.name);
  return method.kind === 'request'
    ? { request: `${base}RequestFrame`, response: `${base}ResponseFrame` }
    : { notification: `${base}NotificationFrame` };
}

/** The bundle of `model`, published as `schemaId` (its targets file's `schemaId`). */
export function buildSchemaBundle(model: Model, schemaId: string): SchemaBundle {
  const defs: Record<string, SchemaNode> = {};
  for (const type of model.types) defs[type.name] = typeSchema(type, model);
  Object.assign(defs, envelopeSchemas(model));
  for (const method of model.methods) Object.assign(defs, frameSchemas(method));
  const frames = Object.keys(defs).filter((name) => name.endsWith('Frame'));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: schemaId,
    title: 'ProtocolFrame',
    description: `Any frame of the ${model.meta.title} ${model.meta.version}. ${model.meta.description}`,
    'x-protocol-version': model.meta.version,
    anyOf: frames.map(ref),
    definitions: defs,
  };
}

function typeSchema(type: TypeDef, model: Model): SchemaNode {
  const { description, examples, ...rest } = type.schema;
  const schema: Record<string, unknown> = {
    title: type.name,
    description,
    ...lowerRefSiblings(rest),
  };
  if (type.isUnknownVariant) excludeKnownTags(schema, type, model);
  if (type.kind === 'openEnum') schema['tsType'] = openEnumTsType(type);
  schema['examples'] = examples;
  return schema;
}

/**
 * `{ $ref, description }` → `{ allOf: [{ $ref }], description }`. Draft-07 ignores keywords beside
 * `$ref`, and json-schema-to-typescript would clone the target as `Name1`; inside allOf both keep them.
 */
function lowerRefSiblings<T>(node: T): T {
  if (Array.isArray(node)) return node.map(lowerRefSiblings) as T;
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([k, v]) => [
    k,
    k === 'examples' ? v : lowerRefSiblings(v),
  ]);
  const lowered = Object.fromEntries(entries) as Record<string, unknown>;
  const { $ref, ...siblings } = lowered;
  if (typeof $ref !== 'string' || Object.keys(siblings).length === 0) return lowered as T;
  return { allOf: [{ $ref }], ...siblings } as T;
}

/** The unknown variant matches only tags no sibling variant claims, so `anyOf` stays unambiguous. */
function excludeKnownTags(schema: Record<string, unknown>, type: TypeDef, model: Model): void {
  const owner = model.types.find((t) => t.union?.variants.some((v) => v.typeName === type.name));
  const discriminator = owner?.union?.discriminator;
  if (!owner || discriminator === null || discriminator === undefined) return;
  const tags = knownTags(owner, model);
  const properties = { ...(schema['properties'] as Record<string, SchemaNode>) };
  properties[discriminator] = {
    ...properties[discriminator],
    not: { enum: tags },
    tsType: UNKNOWN_VALUE_TYPE,
  };
  schema['properties'] = properties;
}

/** Every tag a union's variants claim, nested unions included, in IDL order. */
export function knownTags(union: TypeDef, model: Model): string[] {
  const tags: string[] = [];
  for (const variant of union.union?.variants ?? []) {
    const target = model.types.find((t) => t.name === variant.typeName);
    if (variant.tag !== null && !tags.includes(variant.tag)) tags.push(variant.tag);
    if (target?.union)
      for (const tag of knownTags(target, model)) if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/**
 * The TypeScript type (json-schema-to-typescript's `tsType`) of a value of an open enum, or of an
 * open union's tag, that this version does not know: a string at runtime, declared in
 * types.gen.ts (the ts-types emitter) so that no string literal is assignable or comparable to
 * it. Comparing with a value the set does not list then fails to compile, and `switch` narrows.
 */
export const UNKNOWN_VALUE_TYPE = 'UnknownValue';

/** json-schema-to-typescript option: the known values as a checked union, the others apart. */
function openEnumTsType(type: TypeDef): string {
  return [...type.values.map((v) => `'${v.value}'`), UNKNOWN_VALUE_TYPE].join(' | ');
}

function envelopeSchemas(model: Model): Record<string, SchemaNode> {
  return {
    RequestId: {
      title: 'RequestId',
      description: 'A request id: a string or a number. `null` and other types are malformed.',
      type: ['string', 'number'],
    },
    JsonRpcVersion: {
      title: 'JsonRpcVersion',
      description: 'The `jsonrpc` member; writers always send it, readers do not require it.',
      type: 'string',
      const: '2.0',
    },
    ResponseError: {
      title: 'ResponseError',
      description: `The \`error\` member of an error response. Codes: ${model.errors.map((e) => e.code).join(', ')}.`,
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', description: 'The JSON-RPC error code.' },
        message: { type: 'string', description: 'A short description of the error.' },
        data: { description: 'Details; for -32602 an InvalidParamsData list.' },
      },
    },
    ErrorResponseFrame: {
      title: 'ErrorResponseFrame',
      description: 'A response that reports a failed request.',
      type: 'object',
      required: ['jsonrpc', 'id', 'error'],
      properties: {
        jsonrpc: ref('JsonRpcVersion'),
        id: ref('RequestId'),
        error: ref('ResponseError'),
      },
    },
  };
}

function frameSchemas(method: Method): Record<string, SchemaNode> {
  const names = frameNames(method);
  const params = method.params ? ref(method.params) : { type: ['object', 'null'] };
  // A family of methods: every wire name that starts with the prefix.
  const wire = method.isPrefix
    ? { type: 'string', pattern: `^${method.wireName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` }
    : { type: 'string', const: method.wireName };
  const paramsRequired = method.params ? ['params'] : [];
  const frames: Record<string, SchemaNode> = {};
  if (names.request) {
    frames[names.request] = {
      title: names.request,
      description: `A \`${method.wireName}\` request frame.`,
      type: 'object',
      required: ['jsonrpc', 'id', 'method', ...paramsRequired],
      properties: { jsonrpc: ref('JsonRpcVersion'), id: ref('RequestId'), method: wire, params },
    };
  }
  if (names.response && method.result) {
    frames[names.response] = {
      title: names.response,
      description: `A successful response to \`${method.wireName}\`.`,
      type: 'object',
      required: ['jsonrpc', 'id', 'result'],
      properties: {
        jsonrpc: ref('JsonRpcVersion'),
        id: ref('RequestId'),
        result: ref(method.result),
      },
    };
  }
  if (names.notification) {
    frames[names.notification] = {
      title: names.notification,
      description: `A \`${method.wireName}\` notification frame.`,
      type: 'object',
      required: ['jsonrpc', 'method', ...paramsRequired],
      properties: { jsonrpc: ref('JsonRpcVersion'), method: wire, params },
    };
  }
  return frames;
}
