// Params instances derived from the IDL's schema bundle, so an IDL change changes the kit without a
// hand edit. From every example of a method's params type (and of each variant of the unions it
// holds), each member is broken once: removed when required, replaced by a value of the wrong type
// (`null` for an optional one), pushed just past a numeric or length bound, given a value outside
// a closed enum; integers also get a fraction. Each instance is kept only when the generated
// validator refuses it at the expected pointer, so the kit never expects what the IDL accepts.
import { METHOD_VALIDATORS, toViolations } from '@dsh-sdk/protocol';
import type { MethodName, Validator } from '@dsh-sdk/protocol';
import { isObject } from './server-line.js';
import type { JsonObject } from './server-line.js';

export type SchemaNode = { readonly [keyword: string]: unknown };
export type Definitions = Readonly<Record<string, SchemaNode>>;

/** A params value the runtime must refuse with `-32602` naming `pointer`. */
export interface NegativeInstance {
  readonly label: string;
  readonly params: unknown;
  readonly pointer: string;
}

const REF = '#/definitions/';

/** Follows `$ref` and one-member `allOf`, merging the keywords beside them. */
export function resolve(node: unknown, definitions: Definitions): SchemaNode {
  let current = (isObject(node) ? node : {}) as SchemaNode;
  for (let hops = 0; hops < 16; hops++) {
    const allOf = current['allOf'];
    if (Array.isArray(allOf) && allOf.length === 1) {
      const { allOf: _drop, ...rest } = current;
      current = { ...(allOf[0] as SchemaNode), ...rest };
      continue;
    }
    const ref = current['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith(REF)) return current;
    const { $ref: _drop, ...rest } = current;
    current = { ...definitions[ref.slice(REF.length)], ...rest };
  }
  return current;
}

/** The known variants of a union schema, nested unions flattened, unknown variants left out. */
export function unionVariants(schema: SchemaNode, definitions: Definitions): SchemaNode[] {
  const options = schema['anyOf'];
  if (!Array.isArray(options)) return [schema];
  return options.flatMap((option) => {
    const variant = resolve(option, definitions);
    if (variant['x-unknown-variant'] === true) return [];
    return Array.isArray(variant['anyOf']) ? unionVariants(variant, definitions) : [variant];
  });
}

/** The variant of a union that `value` selects: its tag, then the members that select it. */
function variantOf(
  schema: SchemaNode,
  value: JsonObject,
  definitions: Definitions,
): SchemaNode | undefined {
  const tag = String(schema['x-discriminator'] ?? 'type');
  const candidates = unionVariants(schema, definitions).filter(
    (v) =>
      resolve((v['properties'] as JsonObject | undefined)?.[tag], definitions)['const'] ===
      value[tag],
  );
  const selected = candidates.find((v) =>
    ((v['x-select'] ?? []) as string[]).every((member) => member in value),
  );
  return selected ?? candidates[0];
}

const WRONG_VALUES: readonly [string, unknown][] = [
  ['boolean', true],
  ['number', 12345],
  ['string', 'conformance'],
  ['object', { conformance: true }],
  ['array', ['conformance']],
];

/** A value of a JSON type `schema` does not allow (`integer` allows no string, and so on). */
function wrongValue(schema: SchemaNode): unknown {
  const allowed = new Set(
    [schema['type']].flat().filter((t): t is string => typeof t === 'string'),
  );
  if (allowed.has('integer')) allowed.add('number');
  if (allowed.size === 0) return undefined;
  return WRONG_VALUES.find(([type]) => !allowed.has(type))?.[1];
}

/** Values just past the bounds of a member's schema, with what they break. */
function boundBreakers(schema: SchemaNode, value: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  const num = (key: string) =>
    typeof schema[key] === 'number' ? (schema[key] as number) : undefined;
  const minimum = num('minimum');
  const maximum = num('maximum');
  const minLength = num('minLength');
  const minItems = num('minItems');
  if (minimum !== undefined) out.push([`below its minimum ${minimum}`, minimum - 1]);
  if (maximum !== undefined) out.push([`above its maximum ${maximum}`, maximum + 1]);
  if (minLength !== undefined && minLength > 0)
    out.push([`shorter than ${minLength}`, 'x'.repeat(minLength - 1)]);
  if (num('maxLength') !== undefined)
    out.push(['longer than its maxLength', 'x'.repeat(num('maxLength')! + 1)]);
  if (minItems !== undefined && minItems > 0 && Array.isArray(value))
    out.push([`fewer than ${minItems} items`, value.slice(0, minItems - 1)]);
  if (schema['type'] === 'integer') out.push(['not an integer', 1.5]);
  if (Array.isArray(schema['enum']) && typeof value === 'string')
    out.push(['outside its closed enum', 'conformance-unknown-value']);
  return out;
}

/** Every instance breaking one member of `value` (at `pointer`, with `schema`), nested members included. */
function breakMembers(
  value: unknown,
  schema: SchemaNode,
  pointer: string,
  definitions: Definitions,
  edit: (pointer: string, next: unknown) => unknown,
): NegativeInstance[] {
  if (!isObject(value)) return [];
  const resolved = Array.isArray(schema['anyOf']) ? variantOf(schema, value, definitions) : schema;
  if (!resolved) return [];
  const discriminator = String(schema['x-discriminator'] ?? '');
  const properties = (resolved['properties'] ?? {}) as JsonObject;
  const required = new Set((resolved['required'] ?? []) as string[]);
  const out: NegativeInstance[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (name === discriminator || !(name in value) || raw === false) continue;
    const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const member = resolve(raw, definitions);
    const current = value[name];
    const put = (label: string, next: unknown) =>
      out.push({ label: `${at} ${label}`, params: edit(at, next), pointer: at });
    if (required.has(name)) put('missing', REMOVE);
    const wrong = wrongValue(member);
    if (wrong !== undefined) put(`of the wrong type (${JSON.stringify(wrong)})`, wrong);
    if (!required.has(name)) put('null (null is not absent)', null);
    for (const [label, next] of boundBreakers(member, current)) put(label, next);
    out.push(...breakNested(current, member, at, definitions, edit));
  }
  return out;
}

function breakNested(
  value: unknown,
  schema: SchemaNode,
  pointer: string,
  definitions: Definitions,
  edit: (pointer: string, next: unknown) => unknown,
): NegativeInstance[] {
  if (Array.isArray(value) && value.length > 0 && schema['items'] !== undefined)
    return breakMembers(
      value[0],
      resolve(schema['items'], definitions),
      `${pointer}/0`,
      definitions,
      edit,
    );
  return breakMembers(value, schema, pointer, definitions, edit);
}

/** Marks a member to remove in {@link withMember}. */
export const REMOVE = Symbol('remove');

/** A deep copy of `root` with the value at `pointer` replaced (or removed). */
export function withMember(root: unknown, pointer: string, next: unknown): unknown {
  const copy = structuredClone(root) as JsonObject;
  const path = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = path.pop()!;
  let node: Record<string, unknown> = copy as Record<string, unknown>;
  for (const key of path) node = node[key] as Record<string, unknown>;
  if (next === REMOVE) delete node[last];
  else node[last] = next;
  return copy;
}

/** The negative instances of one method's params, from each base value, checked against the IDL's own validator. */
export function negativeInstances(
  method: string,
  paramsType: string,
  bases: readonly unknown[],
  definitions: Definitions,
  validate: Validator<unknown> = METHOD_VALIDATORS[method as MethodName].params,
): NegativeInstance[] {
  const schema = resolve({ $ref: `${REF}${paramsType}` }, definitions);
  const seen = new Set<string>();
  const out: NegativeInstance[] = [];
  for (const base of bases) {
    const edit = (pointer: string, next: unknown) => withMember(base, pointer, next);
    for (const instance of breakMembers(base, schema, '', definitions, edit)) {
      const key = JSON.stringify(instance.params);
      if (seen.has(key) || validate(instance.params)) continue;
      if (!toViolations(validate.errors).some((v) => v.pointer === instance.pointer)) continue;
      seen.add(key);
      out.push(instance);
    }
  }
  return out;
}
