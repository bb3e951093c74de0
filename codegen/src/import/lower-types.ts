// A source schema's definitions rewritten into the IDL's types, starting from the methods' payloads
// (what no method reaches is left out, as the IDL allows no unused type). Every object gets a name:
// one written inline is hoisted into a named type (its owner's name plus the member's), so every
// language gets the same class names. Titles are dropped (the IDL decides names), references are
// re-pointed, annotations the IDL has no use for are dropped, value unions become enums or type
// arrays, and unions become the IDL's tagged or untagged unions (lower-unions.ts).
import { REF_PREFIX } from '../idl/model.js';
import type { SchemaNode } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import { ImportError } from './collect-methods.js';
import { lowerConstEnum, lowerScalarUnion, optionsOf } from './lower-enums.js';
import { lowerUnion } from './lower-unions.js';
import type { ImportSettings } from './settings.js';
import type { SourceSchema } from './source-schema.js';

/** Source keywords that say nothing the IDL keeps. */
const DROPPED = new Set(['title', '$schema', '$id', '$comment', 'discriminator']);
/** The `x-` keywords the IDL reads on members; every other `x-` keyword is dropped. */
const KEPT_EXTENSIONS = new Set([
  'x-deserialize-default-on-error',
  'x-deserialize-skip-invalid-items',
  'x-deserialize-default-on-null',
]);

export class TypeLowerer {
  /** The IDL's types in the order they were first reached. */
  readonly types = new Map<string, SchemaNode>();

  constructor(
    readonly source: SourceSchema,
    readonly settings: ImportSettings,
  ) {}

  /**
   * A source definition, lowered on first use (a placeholder holds its place while it is); its
   * IDL name is its own unless the settings' `definitionNames` give another.
   */
  definition(sourceName: string): string {
    const name = this.settings.definitionNames[sourceName] ?? sourceName;
    if (this.types.has(name)) return name;
    const schema = this.source.definitions[sourceName];
    if (!schema) throw new ImportError(`${this.source.label}: no definition named ${sourceName}`);
    this.types.set(name, {});
    this.types.set(name, this.lowerType(name, schema));
    return name;
  }

  /** `{ $ref }` to a named type of the IDL. */
  refTo(name: string): SchemaNode {
    return { $ref: REF_PREFIX + name };
  }

  /**
   * A type the importer creates, named `defaultName` unless the settings rename it. Two created
   * types that end up with one name must be identical (the settings may merge them so).
   */
  hoist(defaultName: string, build: (name: string) => SchemaNode): string {
    const name = this.settings.typeNames[defaultName] ?? defaultName;
    const existing = this.types.get(name);
    if (existing !== undefined) {
      if (JSON.stringify(existing) === JSON.stringify(build(name))) return name;
      throw new ImportError(
        `two different types would be named ${name} (one of them by default ${defaultName}): rename one in "typeNames" of ${this.settings.path}`,
      );
    }
    if (this.source.definitions[name] !== undefined)
      throw new ImportError(
        `the type the importer names ${name} clashes with the definition of that name: rename it in "typeNames" of ${this.settings.path}`,
      );
    this.types.set(name, {});
    this.types.set(name, build(name));
    return name;
  }

  /** A whole type: its schema in the IDL, with its description. */
  lowerType(name: string, schema: SchemaNode): SchemaNode {
    const description = this.describe(name, schema);
    const lowered =
      lowerConstEnum(schema) ??
      lowerScalarUnion(schema) ??
      (optionsOf(schema) ? lowerUnion(this, name, schema) : null) ??
      (isObject(schema) ? this.lowerObject(name, schema) : this.value(schema, name, ''));
    return { ...lowered, description };
  }

  /** An object type: its members lowered, its `allOf` bases named. */
  lowerObject(name: string, schema: SchemaNode): SchemaNode {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties') out[key] = this.members(name, value as Record<string, SchemaNode>);
      else if (key === 'additionalProperties' && typeof value === 'object')
        out[key] = this.member(value as SchemaNode, name, 'value');
      else if (key === 'allOf') out[key] = this.bases(name, value as SchemaNode[]);
      else if (keeps(key)) out[key] = value;
    }
    return { type: 'object', ...out };
  }

  /** An object's members, each described (from the schema or the settings' `Type.member`). */
  members(owner: string, properties: Record<string, SchemaNode>): Record<string, SchemaNode> {
    const out: Record<string, SchemaNode> = {};
    for (const [member, schema] of Object.entries(properties)) {
      const lowered = this.member(schema, owner, member);
      const description = this.settings.descriptions[`${owner}.${member}`];
      out[member] = description ? { ...lowered, description } : lowered;
    }
    return out;
  }

  /** `allOf` of references; an inline union among them is hoisted as `<owner>Choice`. */
  bases(owner: string, allOf: readonly SchemaNode[]): SchemaNode[] {
    return allOf.map((base) => {
      const ref = base['$ref'];
      if (typeof ref === 'string') return this.refTo(this.definition(this.refName(ref)));
      const described = { ...base, description: base['description'] ?? describeChoice(base) };
      const name = this.hoist(`${owner}Choice`, (hoisted) => this.lowerType(hoisted, described));
      return this.refTo(name);
    });
  }

  /** A member's schema: references re-pointed, inline objects and unions hoisted. */
  member(schema: SchemaNode, owner: string, member: string): SchemaNode {
    if (typeof schema !== 'object' || schema === null) return schema;
    const options = optionsOf(schema);
    const hoistable =
      schema['properties'] !== undefined ||
      (options !== null && !isNullableRef(options) && lowerScalarUnion(schema) === null);
    if (hoistable) {
      const name = this.hoist(`${owner}${pascalCase(member)}`, (n) => this.lowerType(n, schema));
      const description = schema['description'];
      return description === undefined
        ? this.refTo(name)
        : { allOf: [this.refTo(name)], description };
    }
    return this.value(lowerScalarUnion(schema) ?? schema, owner, member);
  }

  /** A schema in value position: keywords kept, nested schemas lowered as members. */
  value(schema: SchemaNode, owner: string, member: string): SchemaNode {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string')
        out[key] = REF_PREFIX + this.definition(this.refName(value));
      else if (key === 'items' || key === 'additionalProperties')
        out[key] =
          typeof value === 'object' && value !== null
            ? this.member(
                value as SchemaNode,
                owner,
                `${member}${key === 'items' ? 'Item' : 'Value'}`,
              )
            : value;
      else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf')
        out[key === 'oneOf' ? 'anyOf' : key] = (value as SchemaNode[]).map((option) =>
          this.value(option, owner, member),
        );
      else if (keeps(key)) out[key] = value;
    }
    return out;
  }

  /** The definition a source reference names. */
  refName(ref: string): string {
    if (!ref.startsWith(this.source.refPrefix))
      throw new ImportError(`${this.source.label}: reference ${ref} is not to a definition`);
    return ref.slice(this.source.refPrefix.length);
  }

  /** A type's description: the settings', the schema's, or a made-up one for a created type. */
  describe(name: string, schema: SchemaNode, fallback?: string): string {
    const text = this.settings.descriptions[name] ?? schema['description'] ?? fallback;
    if (typeof text === 'string' && text.trim() !== '') return text;
    throw new ImportError(
      `${name} has no description in ${this.source.label}: add one to "descriptions" of ${this.settings.path}`,
    );
  }
}

/** `One of: Session, Request.`: a made-up description of an inline union, from its options' titles. */
export function describeChoice(schema: SchemaNode): string {
  const titles = (optionsOf(schema) ?? []).map((o, i) => String(o['title'] ?? `option ${i + 1}`));
  return `One of: ${titles.join(', ')}.`;
}

function keeps(key: string): boolean {
  if (DROPPED.has(key)) return false;
  return !key.startsWith('x-') || KEPT_EXTENSIONS.has(key);
}

function isObject(schema: SchemaNode): boolean {
  return schema['type'] === 'object' || schema['properties'] !== undefined;
}

/** `anyOf: [{ $ref }, { type: null }]`: a nullable reference, which the IDL keeps as written. */
function isNullableRef(options: readonly SchemaNode[]): boolean {
  return (
    options.length === 2 &&
    options.some((o) => o['type'] === 'null' && Object.keys(o).length === 1) &&
    options.some((o) => typeof o['$ref'] === 'string' && Object.keys(o).length === 1)
  );
}
