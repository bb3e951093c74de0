// `oneOf` / `anyOf` of objects rewritten into the IDL's unions, whose variants are named types.
// Tagged: every option but a catch-all and a default gives one member (the discriminator: OpenAPI's
// `discriminator.propertyName`, or else the member every tagged option gives a string `const`) a
// string `const`. Each tagged option becomes `<Tag><Union>` (its tag, the union's own members and
// its `allOf` bases); an option that excludes the others' tags with `not` becomes the open union's
// `Unknown<Union>`; an option without a tag becomes the default variant (the type it refers to, when
// it only refers to one). Untagged: the options' types, each option that is not a plain reference
// becoming `<Title><Union>`. A union beside members of its own (untagged) becomes an object of those
// members that extends the union, hoisted as `<Union>Choice`.
import type { SchemaNode } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import { optionsOf } from './lower-enums.js';
import type { TypeLowerer } from './lower-types.js';
import { describeChoice } from './lower-types.js';

/** The union's own members (common to every option) and their `required`. */
interface CommonPart {
  readonly properties: Record<string, SchemaNode>;
  readonly required: readonly string[];
}

export function lowerUnion(lower: TypeLowerer, name: string, schema: SchemaNode): SchemaNode {
  const options = optionsOf(schema) ?? [];
  const common: CommonPart = {
    properties: (schema['properties'] ?? {}) as Record<string, SchemaNode>,
    required: (schema['required'] ?? []) as string[],
  };
  const discriminator = findDiscriminator(schema, options);
  if (discriminator !== null) return taggedUnion(lower, name, options, common, discriminator);
  if (Object.keys(common.properties).length === 0) return untaggedUnion(lower, name, options);
  // Members beside an untagged union: an object of them that also is one of the options.
  const choice = lower.hoist(`${name}Choice`, (hoisted) => ({
    ...untaggedUnion(lower, hoisted, options),
    description: lower.describe(hoisted, {}, describeChoice({ anyOf: options })),
  }));
  return {
    type: 'object',
    properties: lower.members(name, common.properties),
    ...(common.required.length > 0 ? { required: common.required } : {}),
    allOf: [lower.refTo(choice)],
  };
}

const tagOf = (option: SchemaNode, discriminator: string): string | null => {
  const properties = option['properties'] as Record<string, SchemaNode> | undefined;
  const tag = properties?.[discriminator]?.['const'];
  return typeof tag === 'string' ? tag : null;
};

const isCatchAll = (option: SchemaNode): boolean => option['not'] !== undefined;

/** OpenAPI's `discriminator.propertyName`, or the member all tagged options give a `const`. */
function findDiscriminator(schema: SchemaNode, options: readonly SchemaNode[]): string | null {
  const declared = (schema['discriminator'] as { propertyName?: unknown } | undefined)
    ?.propertyName;
  if (typeof declared === 'string') return declared;
  const first = options.find((o) => o['properties'] !== undefined);
  const candidates = Object.keys((first?.['properties'] ?? {}) as object);
  for (const candidate of candidates) {
    const tagged = options.filter((o) => tagOf(o, candidate) !== null);
    const rest = options.filter((o) => tagOf(o, candidate) === null && !isCatchAll(o));
    if (tagged.length > 0 && rest.every((o) => !hasMember(o, candidate))) return candidate;
  }
  return null;
}

function hasMember(option: SchemaNode, member: string): boolean {
  return (option['properties'] as Record<string, unknown> | undefined)?.[member] !== undefined;
}

/** The type an option only refers to (`{ $ref }` or `{ allOf: [{ $ref }] }`), or null. */
function plainRef(lower: TypeLowerer, option: SchemaNode): string | null {
  const allOf = option['allOf'];
  const inner = Array.isArray(allOf) && allOf.length === 1 ? (allOf[0] as SchemaNode) : option;
  const ref = inner['$ref'];
  const others = Object.keys(option).filter(
    (k) => !['$ref', 'allOf', 'title', 'description', 'type'].includes(k),
  );
  if (typeof ref !== 'string' || others.length > 0) return null;
  return lower.definition(lower.refName(ref));
}

function taggedUnion(
  lower: TypeLowerer,
  name: string,
  options: readonly SchemaNode[],
  common: CommonPart,
  discriminator: string,
): SchemaNode {
  const tagged: string[] = [];
  let defaultVariant: string | null = null;
  let unknownVariant: string | null = null;
  for (const option of options) {
    const tag = tagOf(option, discriminator);
    if (tag !== null) {
      const variant = variantObject(lower, option, common, discriminator, tag);
      tagged.push(
        lower.hoist(`${pascalCase(camel(tag))}${name}`, (n) =>
          describeAs(lower, n, option, variant(n)),
        ),
      );
    } else if (isCatchAll(option)) {
      const variant = variantObject(lower, option, common, discriminator, null);
      unknownVariant = lower.hoist(`Unknown${name}`, (n) => ({
        ...describeAs(lower, n, option, variant(n)),
        'x-unknown-variant': true,
      }));
    } else {
      const direct = Object.keys(common.properties).length === 0 ? plainRef(lower, option) : null;
      const title = pascalCase(camel(String(option['title'] ?? 'default')));
      const variant = variantObject(lower, option, common, discriminator, undefined);
      defaultVariant =
        direct ?? lower.hoist(`${title}${name}`, (n) => describeAs(lower, n, option, variant(n)));
    }
  }
  const variants = [
    ...tagged,
    ...(defaultVariant ? [defaultVariant] : []),
    ...(unknownVariant ? [unknownVariant] : []),
  ];
  return {
    anyOf: variants.map((v) => lower.refTo(v)),
    'x-discriminator': discriminator,
    ...(unknownVariant ? { 'x-open': true } : {}),
    ...(defaultVariant ? { 'x-default-variant': defaultVariant } : {}),
  };
}

/**
 * One option as an object: the discriminator first (its `const`, or any other string for the
 * unknown variant; absent for the default variant), the union's members, the option's own, and
 * its bases (an inline union among them hoisted as `<Variant>Choice`).
 */
function variantObject(
  lower: TypeLowerer,
  option: SchemaNode,
  common: CommonPart,
  discriminator: string,
  tag: string | null | undefined,
): (name: string) => SchemaNode {
  return (name) => {
    const own = { ...((option['properties'] ?? {}) as Record<string, SchemaNode>) };
    const written = own[discriminator];
    delete own[discriminator];
    const tagMember: Record<string, SchemaNode> =
      tag === undefined
        ? {}
        : {
            [discriminator]:
              tag === null
                ? {
                    type: 'string',
                    description: String(
                      written?.['description'] ?? `Any value no other variant claims.`,
                    ),
                  }
                : {
                    type: 'string',
                    const: tag,
                    description: `Always \`${tag}\`: selects this variant.`,
                  },
          };
    const required = [
      ...new Set([
        ...(tag === undefined ? [] : [discriminator]),
        ...common.required,
        ...((option['required'] ?? []) as string[]),
      ]),
    ];
    const bases = [
      ...((option['allOf'] ?? []) as SchemaNode[]),
      ...(optionsOf(option) ? [{ anyOf: optionsOf(option) } as SchemaNode] : []),
    ];
    return {
      type: 'object',
      properties: { ...tagMember, ...lower.members(name, { ...common.properties, ...own }) },
      ...(required.length > 0 ? { required } : {}),
      ...(bases.length > 0 ? { allOf: lower.bases(name, bases) } : {}),
    };
  };
}

function untaggedUnion(
  lower: TypeLowerer,
  name: string,
  options: readonly SchemaNode[],
): SchemaNode {
  const variants = options.map((option, i) => {
    const direct = plainRef(lower, option);
    if (direct) return direct;
    const title = pascalCase(camel(String(option['title'] ?? `variant${i + 1}`)));
    return lower.hoist(`${title}${name}`, (n) =>
      lower.lowerType(n, { ...option, description: option['description'] ?? `One of ${name}.` }),
    );
  });
  return { anyOf: variants.map((v) => lower.refTo(v)), 'x-untagged': true };
}

function describeAs(
  lower: TypeLowerer,
  name: string,
  option: SchemaNode,
  schema: SchemaNode,
): SchemaNode {
  return { ...schema, description: lower.describe(name, option, `A variant of ${name}.`) };
}

/** `resource_link` → `resourceLink`, `value_id` → `valueId` (for PascalCase names). */
function camel(text: string): string {
  return text.replace(/[-_\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}
