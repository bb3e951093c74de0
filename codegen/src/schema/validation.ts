// The bundle rewritten for validators: each discriminated union becomes an if/then/else chain.
// `anyOf` makes validators report every branch's errors; dispatching on the discriminator reports
// only the selected variant's, so violations name the real problem (and ajv and the Python
// validators agree). Types are untouched: json-schema-to-typescript and datamodel-code-generator
// read the anyOf form.
import type { Model, SchemaNode, TypeDef, UnionVariant } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import type { SchemaBundle } from './bundle.js';
import { LENIENT_KEYWORDS, lenientMember } from './lenient.js';
import { withNumberRule } from './number-rule.js';

/** The validators' bundle is named after the published one: `protocol.validation.schema.json`. */
export function validationBundleId(schemaId: string): string {
  return schemaId.replace(/\.schema\.json$/, '.validation.schema.json');
}

/** Annotation keywords validators never read; dropped so generated code stays small. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'tsType', '$comment']);

/** The one `x-` keyword of the IDL validators assert (idl.schema.json). */
export const NOT_OBJECT_LACKS_REQUIRED = 'x-not-object-lacks-required';

/** The `x-` keywords validators run; every other `x-` key is dropped. */
const ASSERTED = new Set([NOT_OBJECT_LACKS_REQUIRED, ...LENIENT_KEYWORDS]);

export function buildValidationBundle(bundle: SchemaBundle, model: Model): SchemaBundle {
  const definitions: Record<string, SchemaNode> = {};
  for (const [name, schema] of Object.entries(withNumberRule(bundle, model).definitions)) {
    const type = model.types.find((t) => t.name === name);
    definitions[name] = type?.union ? unionSchema(type, model) : stripAnnotations(schema);
  }
  return { ...bundle, $id: validationBundleId(bundle.$id), definitions };
}

/** Variants in dispatch order, nested unions flattened in place. */
export function flattenVariants(union: TypeDef, model: Model): UnionVariant[] {
  const out: UnionVariant[] = [];
  for (const variant of union.union?.variants ?? []) {
    const nested = model.types.find((t) => t.name === variant.typeName);
    if (nested?.union) out.push(...flattenVariants(nested, model));
    else out.push(variant);
  }
  return out;
}

/**
 * A union's validator: dispatch on the discriminator (tagged; a default variant takes every value
 * no known tag selects), or on the required members each variant alone has (untagged).
 */
function unionSchema(type: TypeDef, model: Model): SchemaNode {
  if (type.union?.discriminator === null) return selectByRequired(type);
  return dispatchSchema(type, model);
}

/** Untagged: the first variant whose own required members are present; else any that matches. */
function selectByRequired(type: TypeDef): SchemaNode {
  const variants = type.union?.variants ?? [];
  const otherwise: SchemaNode = { anyOf: variants.map((v) => ({ $ref: REF_PREFIX + v.typeName })) };
  return variants
    .filter((v) => v.select.length > 0)
    .reduceRight<SchemaNode>(
      (elseBranch, v) => ({
        if: { required: v.select },
        then: { $ref: REF_PREFIX + v.typeName },
        else: elseBranch,
      }),
      otherwise,
    );
}

function dispatchSchema(type: TypeDef, model: Model): SchemaNode {
  const discriminator = type.union?.discriminator ?? 'type';
  const variants = flattenVariants(type, model);
  const known = variants.filter((v) => v.tag !== null);
  const unknown = variants.find((v) => v.tag === null);
  const otherwise: SchemaNode = unknown
    ? { $ref: REF_PREFIX + unknown.typeName }
    : { properties: { [discriminator]: { enum: known.map((v) => v.tag) } } };
  const chain = known.reduceRight<SchemaNode>(
    (elseBranch, variant) => ({
      if: {
        properties: { [discriminator]: { const: variant.tag } },
        required: [discriminator, ...variant.select],
      },
      then: { $ref: REF_PREFIX + variant.typeName },
      else: elseBranch,
    }),
    otherwise,
  );
  // With a default variant the tag may be absent: a value without it is the default's.
  if (variants.some((v) => v.isDefault)) return { type: 'object', ...chain };
  return {
    type: 'object',
    required: [discriminator],
    properties: { [discriminator]: { type: 'string' } },
    ...chain,
  };
}

/**
 * Validators assert `contentEncoding: base64` (canonical padded base64, checked by decoding and
 * re-encoding), which implies the alphabet `pattern`; dropping the pattern saves a second pass over
 * multi-MiB strings.
 */
function stripAnnotations<T>(node: T): T {
  if (Array.isArray(node)) return node.map(stripAnnotations) as T;
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  const isBase64 = (node as Record<string, unknown>)['contentEncoding'] === 'base64';
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) || (key.startsWith('x-') && !ASSERTED.has(key))) continue;
    if (isBase64 && key === 'pattern') continue;
    // Inside `properties`, keys are property names, never annotations; members may repair.
    const required = new Set((node as { required?: string[] }).required ?? []);
    const member = (name: string, schema: unknown) =>
      stripAnnotations(lenientMember(schema as SchemaNode, required.has(name)));
    out[key] = key === 'properties' ? mapEntries(value, member) : stripAnnotations(value);
  }
  return out as T;
}

function mapEntries(value: unknown, fn: (key: string, v: unknown) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(k, v)]));
}
