// Raw (already meta-schema-valid) IDL JSON → typed Model. Pure data reshaping; checks live in check.ts.
import type {
  Deprecation,
  DiagnosticDef,
  EnumValue,
  ErrorCodeDef,
  Field,
  Lenience,
  Method,
  Model,
  SchemaNode,
  Sequence,
  SequenceStep,
  TypeDef,
  TypeKind,
  TypeSection,
  Union,
  UnionVariant,
} from './model.js';
import { isNullSchema, refName, refTarget } from './model.js';
import { collectMessages } from './messages.js';
import type { RawCapability } from './capabilities.js';
import { buildCapabilities } from './capabilities.js';

/** A deprecation as written in the IDL. */
export interface RawDeprecation {
  reason: string;
  replacement?: string;
}

/** An `x-known-values` entry: a description, or an object with `since` / `deprecated`. */
export type RawKnownValue =
  string | { description: string; since?: number; deprecated?: RawDeprecation };

/** `meta.maxNestingDepth` of a file written before the member existed. */
const DEFAULT_MAX_NESTING_DEPTH = 64;

export interface RawIdl {
  meta: Omit<Model['meta'], 'protocolVersion' | 'maxNestingDepth' | 'maxSafeInteger'> & {
    protocolVersion?: number;
    maxNestingDepth?: number;
    maxSafeInteger?: number;
  };
  methods: {
    name: string;
    method: string;
    direction: Method['direction'];
    kind: Method['kind'];
    params: string | null;
    result?: string;
    errors?: string[];
    description: string;
    since?: number;
    deprecated?: RawDeprecation;
    optional?: boolean;
    match?: 'exact' | 'prefix';
  }[];
  types: Record<string, SchemaNode>;
  vocabulary: Record<string, SchemaNode>;
  errorData: Record<string, SchemaNode>;
  errors: {
    name: string;
    code: number;
    message: string;
    messages?: Record<string, string>;
    data?: string;
    description: string;
  }[];
  diagnostics: DiagnosticDef[];
  sequences?: RawSequence[];
  capabilities?: RawCapability[];
}

/** A sequence step as written in the IDL (idl.schema.json, `sequenceStep`). */
export interface RawSequenceStep {
  request?: string;
  result?: string;
  error?: string;
  code?: string;
  notification?: string;
  event?: string;
  events?: string[];
  members?: string[];
  values?: Record<string, string | number | boolean>;
  note?: string;
  over?: 'client' | 'runtime' | 'both';
  opt?: string;
  steps?: RawSequenceStep[];
  alt?: { label: string; steps: RawSequenceStep[] }[];
}

export interface RawSequence {
  name: string;
  title: string;
  description: string;
  since?: number;
  steps: RawSequenceStep[];
}

export const TYPE_SECTIONS: readonly TypeSection[] = ['types', 'vocabulary', 'errorData'];

export function buildModel(raw: RawIdl): Model {
  const types: TypeDef[] = [];
  for (const section of TYPE_SECTIONS) {
    for (const [name, schema] of Object.entries(raw[section])) {
      types.push(buildType(name, section, schema, raw));
    }
  }
  const methods: Method[] = raw.methods.map((m) => ({
    name: m.name,
    wireName: m.method,
    direction: m.direction,
    kind: m.kind,
    params: m.params,
    result: m.result ?? null,
    errors: m.errors ?? [],
    description: m.description,
    since: m.since ?? 1,
    deprecated: deprecation(m.deprecated),
    isOptional: m.optional === true,
    isPrefix: m.match === 'prefix',
  }));
  const errors: ErrorCodeDef[] = raw.errors.map((e) => ({
    name: e.name,
    code: e.code,
    message: e.message,
    dataType: e.data ?? null,
    description: e.description,
  }));
  // Members the IDL format gained after a version was released: their values before they existed.
  const meta = {
    ...raw.meta,
    protocolVersion: raw.meta.protocolVersion ?? 1,
    maxNestingDepth: raw.meta.maxNestingDepth ?? DEFAULT_MAX_NESTING_DEPTH,
    maxSafeInteger: raw.meta.maxSafeInteger ?? Number.MAX_SAFE_INTEGER,
  };
  const sequences = (raw.sequences ?? []).map((q): Sequence => ({
    name: q.name,
    title: q.title,
    description: q.description,
    since: q.since ?? 1,
    steps: q.steps.map(buildStep),
  }));
  const messages = collectMessages(raw);
  const capabilities = buildCapabilities(raw);
  return {
    meta,
    methods,
    types,
    errors,
    diagnostics: raw.diagnostics,
    messages,
    sequences,
    capabilities,
  };
}

/** A step of the meta-schema's `oneOf`, told apart by the member that names its kind. */
export function buildStep(raw: RawSequenceStep): SequenceStep {
  const facts = {
    members: raw.members ?? [],
    values: Object.entries(raw.values ?? {}),
    note: raw.note ?? null,
  };
  if (raw.request !== undefined) return { kind: 'request', method: raw.request, ...facts };
  if (raw.result !== undefined) return { kind: 'result', method: raw.result, ...facts };
  if (raw.error !== undefined)
    return { kind: 'error', method: raw.error, code: raw.code ?? '', ...facts };
  if (raw.notification !== undefined) {
    const events = raw.events ?? (raw.event === undefined ? [] : [raw.event]);
    return { kind: 'notification', method: raw.notification, events, ...facts };
  }
  if (raw.opt !== undefined)
    return { kind: 'opt', label: raw.opt, steps: (raw.steps ?? []).map(buildStep) };
  if (raw.alt !== undefined)
    return {
      kind: 'alt',
      branches: raw.alt.map((b) => ({ label: b.label, steps: b.steps.map(buildStep) })),
    };
  return { kind: 'note', text: raw.note ?? '', over: raw.over ?? 'both' };
}

function deprecation(raw: unknown): Deprecation | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { reason, replacement } = raw as RawDeprecation;
  return { reason, replacement: replacement ?? null };
}

/** `x-since` of a property schema (1 when absent). */
export function propertySince(prop: unknown): number {
  const since = typeof prop === 'object' && prop !== null ? (prop as SchemaNode)['x-since'] : null;
  return typeof since === 'number' ? since : 1;
}

export function schemaOf(raw: RawIdl, name: string): SchemaNode | undefined {
  for (const section of TYPE_SECTIONS) if (raw[section][name]) return raw[section][name];
  return undefined;
}

function buildType(name: string, section: TypeSection, schema: SchemaNode, raw: RawIdl): TypeDef {
  const kind = typeKind(schema);
  return {
    name,
    section,
    kind,
    description: String(schema['description'] ?? ''),
    schema,
    examples: (schema['examples'] as unknown[] | undefined) ?? [],
    fields: kind === 'object' ? buildFields(schema) : [],
    bases: kind === 'object' ? baseNames(schema) : [],
    union: kind === 'union' ? buildUnion(schema, raw) : null,
    values: enumValues(schema),
    isUnknownVariant: schema['x-unknown-variant'] === true,
    constantName: typeof schema['x-constant'] === 'string' ? schema['x-constant'] : null,
  };
}

function typeKind(schema: SchemaNode): TypeKind {
  if (Array.isArray(schema['anyOf'])) return 'union';
  if (schema['x-known-values']) return 'openEnum';
  if (Array.isArray(schema['enum'])) return 'enum';
  if (schema['type'] === 'object' || isExtension(schema)) return 'object';
  if (schema['type'] === 'array') return 'array';
  return 'scalar';
}

/** A type that only extends others (`allOf` of `$ref`s, no `type`): an object of their members. */
function isExtension(schema: SchemaNode): boolean {
  return schema['type'] === undefined && baseNames(schema).length > 0;
}

/** The `$ref`s of a type's `allOf`: the types it extends. */
function baseNames(schema: SchemaNode): string[] {
  const allOf = schema['allOf'];
  if (!Array.isArray(allOf)) return [];
  return allOf.map(refName).filter((name): name is string => name !== null);
}

function buildFields(schema: SchemaNode): Field[] {
  const properties = (schema['properties'] ?? {}) as Record<string, SchemaNode>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const present = Object.entries(properties).filter(([, prop]) => typeof prop === 'object');
  return present.map(([name, prop]) => {
    const isArray = typeList(prop['type']).includes('array');
    const target = isArray ? prop['items'] : prop;
    return {
      name,
      required: required.has(name),
      description: String(prop['description'] ?? ''),
      schema: prop,
      typeRef: refTarget(target),
      isArray,
      isNullable: admitsNull(prop),
      lenience: lenience(prop),
      since: propertySince(prop),
      deprecated: deprecation(prop['x-deprecated']),
    };
  });
}

function typeList(type: unknown): unknown[] {
  return Array.isArray(type) ? type : [type];
}

/** `type` lists `null`, or `anyOf` has a `{ "type": "null" }` option. */
function admitsNull(prop: SchemaNode): boolean {
  const anyOf = prop['anyOf'];
  return (
    typeList(prop['type']).includes('null') || (Array.isArray(anyOf) && anyOf.some(isNullSchema))
  );
}

function lenience(prop: SchemaNode): Lenience | null {
  const found: Lenience = {
    defaultOnError: prop['x-deserialize-default-on-error'] === true,
    skipInvalidItems: prop['x-deserialize-skip-invalid-items'] === true,
    defaultOnNull: prop['x-deserialize-default-on-null'] === true,
  };
  return Object.values(found).some(Boolean) ? found : null;
}

function buildUnion(schema: SchemaNode, raw: RawIdl): Union {
  const isUntagged = schema['x-untagged'] === true;
  const discriminator = isUntagged ? null : String(schema['x-discriminator'] ?? 'type');
  const defaultVariant = schema['x-default-variant'];
  const seenRequired = new Set<string>();
  const variants: UnionVariant[] = (schema['anyOf'] as SchemaNode[]).map((option) => {
    const typeName = refName(option) ?? '';
    const target = schemaOf(raw, typeName) ?? {};
    if (discriminator === null) {
      const required = requiredMembers(target, raw);
      const select = required.filter((name) => !seenRequired.has(name));
      for (const name of required) seenRequired.add(name);
      return { typeName, tag: null, select, isDefault: false };
    }
    const properties = (target['properties'] ?? {}) as Record<string, SchemaNode>;
    const tagSchema = properties[discriminator];
    const tag = typeof tagSchema?.['const'] === 'string' ? tagSchema['const'] : null;
    const select = (target['x-select'] ?? []) as string[];
    return { typeName, tag, select, isDefault: typeName === defaultVariant };
  });
  return { discriminator, isOpen: schema['x-open'] === true, variants };
}

/** A type's required members, its bases' included, in order. */
export function requiredMembers(schema: SchemaNode, raw: RawIdl, depth = 0): string[] {
  const own = (schema['required'] ?? []) as string[];
  if (depth > 16) return own;
  const inherited = baseNames(schema).flatMap((base) => {
    const target = schemaOf(raw, base);
    return target ? requiredMembers(target, raw, depth + 1) : [];
  });
  return [...new Set([...inherited, ...own])];
}

function enumValues(schema: SchemaNode): EnumValue[] {
  const known = schema['x-known-values'] as Record<string, RawKnownValue> | undefined;
  if (known) return Object.entries(known).map(([value, entry]) => knownValue(value, entry));
  const values = schema['enum'];
  const described = (schema['x-enum-descriptions'] ?? {}) as Record<string, string>;
  return Array.isArray(values)
    ? values.map((value) => ({
        value: String(value),
        description: described[String(value)] ?? null,
        since: 1,
        deprecated: null,
      }))
    : [];
}

function knownValue(value: string, entry: RawKnownValue): EnumValue {
  if (typeof entry === 'string') return { value, description: entry, since: 1, deprecated: null };
  return {
    value,
    description: entry.description,
    since: entry.since ?? 1,
    deprecated: deprecation(entry.deprecated),
  };
}
