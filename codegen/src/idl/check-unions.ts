// Unions: variants are named types, told apart by a discriminator's `const` (a tagged union, with
// at most a default and an unknown variant) or by their required members (an untagged union).
import type { RawIdl } from './build-model.js';
import { TYPE_SECTIONS } from './build-model.js';
import type { Finding } from './check.js';
import type { SchemaNode } from './model.js';
import { refName } from './model.js';

export function checkUnion(
  name: string,
  schema: SchemaNode,
  at: string,
  raw: RawIdl,
  findings: Finding[],
): void {
  const options = schema['anyOf'];
  if (!Array.isArray(options)) return;
  const discriminator = schema['x-discriminator'];
  if (schema['x-untagged'] === true) {
    checkUntaggedUnion(name, schema, at, findings);
    return;
  }
  if (typeof discriminator !== 'string') {
    findings.push({
      pointer: `${at}/anyOf`,
      message: `union "${name}" has no x-discriminator`,
      hint: 'add "x-discriminator": "<property>" naming the property whose value tells the variants apart, or "x-untagged": true when the variants have none',
    });
    return;
  }
  const defaultVariant = schema['x-default-variant'];
  if (typeof defaultVariant === 'string' && !options.some((o) => refName(o) === defaultVariant))
    findings.push({
      pointer: `${at}/x-default-variant`,
      message: `"${defaultVariant}" is not a variant of "${name}"`,
      hint: 'name one of the $refs of anyOf, or remove x-default-variant',
    });
  let unknownCount = 0;
  options.forEach((option: SchemaNode, i: number) => {
    const variantName = refName(option);
    const optionAt = `${at}/anyOf/${i}`;
    if (variantName === null) {
      findings.push(variantNotRef(optionAt));
      return;
    }
    const variant = TYPE_SECTIONS.map((s) => raw[s][variantName]).find((v) => v !== undefined);
    if (!variant || variantName === defaultVariant) return;
    if (variant['x-unknown-variant'] === true) {
      unknownCount++;
      if (i !== options.length - 1)
        findings.push({
          pointer: optionAt,
          message: 'the unknown variant is not last',
          hint: 'move the unknown variant to the end of anyOf',
        });
      return;
    }
    const tag = ((variant['properties'] ?? {}) as Record<string, SchemaNode>)[discriminator]?.[
      'const'
    ];
    if (typeof tag !== 'string' && !Array.isArray(variant['anyOf'])) {
      findings.push({
        pointer: optionAt,
        message: `variant "${variantName}" has no string const for "${discriminator}"`,
        hint: `give ${variantName}.properties.${discriminator} a "const" value`,
      });
    }
  });
  checkOpenness(name, schema, at, unknownCount, findings);
}

const variantNotRef = (pointer: string): Finding => ({
  pointer,
  message: 'union variant is not a $ref',
  hint: 'define the variant as a named type and refer to it with $ref; its name becomes the class name',
});

/** An untagged union: variants by $ref; no discriminator, default, or unknown variant. */
function checkUntaggedUnion(
  name: string,
  schema: SchemaNode,
  at: string,
  findings: Finding[],
): void {
  for (const key of ['x-discriminator', 'x-default-variant', 'x-open'])
    if (schema[key] !== undefined)
      findings.push({
        pointer: `${at}/${key}`,
        message: `${key} on the untagged union "${name}"`,
        hint: 'an untagged union has no discriminator: remove x-untagged or this member',
      });
  (schema['anyOf'] as unknown[]).forEach((option, i) => {
    if (refName(option) === null) findings.push(variantNotRef(`${at}/anyOf/${i}`));
  });
}

function checkOpenness(
  name: string,
  schema: SchemaNode,
  at: string,
  unknownCount: number,
  findings: Finding[],
): void {
  const isOpen = schema['x-open'] === true;
  if (isOpen && unknownCount !== 1)
    findings.push({
      pointer: `${at}/x-open`,
      message: `open union "${name}" needs exactly one variant with "x-unknown-variant": true (has ${unknownCount})`,
      hint: 'add a named Unknown… variant last, or drop x-open',
    });
  if (!isOpen && unknownCount > 0)
    findings.push({
      pointer: `${at}/anyOf`,
      message: `closed union "${name}" has an unknown variant`,
      hint: 'add "x-open": true or remove the unknown variant',
    });
}
