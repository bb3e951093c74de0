// IDL → guards.gen.ts: one type guard per known variant of each open union, for `filter` and
// other places a comparison does not narrow (the unknown variant's tag is an `UnknownValue`, so
// `value.type === 'x'` in an `if` or a `switch` narrows too).
import type { Model, TypeDef, UnionVariant } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Emitter } from './emitter.js';
import { tsFile } from './emitter.js';

export const tsGuardsEmitter: Emitter = {
  name: 'ts-guards',
  target: 'typescript',
  emit({ model, target }) {
    const f = tsFile(target, 'guards.gen.ts', 'ts-guards');
    for (const union of openUnions(model)) emitGuards(f, union);
    return [f.finish()];
  },
};

/** The open unions with a discriminator: those `type === tag` cannot narrow. */
function openUnions(model: Model): TypeDef[] {
  return model.types.filter((type) => type.union?.isOpen === true && type.union.discriminator);
}

function emitGuards(f: GeneratedFile, union: TypeDef): void {
  const variants = union.union?.variants ?? [];
  const discriminator = union.union?.discriminator ?? '';
  const hasDefault = variants.some((v) => v.isDefault);
  const unionName = f.importType(union.name, './types.gen.js');
  for (const variant of variants) {
    if (variant.tag === null) continue;
    const name = f.importType(variant.typeName, './types.gen.js');
    f.raw(
      f.jsdoc(
        `Whether \`value\` is a {@link ${name}} (\`${discriminator}\` \`${variant.tag}\`${selectText(variant)}). Values are checked against the schema before they reach a handler, so the \`${discriminator}\` guarantees the variant's shape.`,
      ),
    );
    f.print`export function is${variant.typeName}(value: ${unionName}): value is ${name} {`;
    f.print`  return ${condition(f, discriminator, variant, hasDefault)};`;
    f.print`}`;
    f.blank();
  }
}

function selectText(variant: UnionVariant): string {
  return variant.select.length === 0
    ? ''
    : ` with ${variant.select.map((p) => `\`${p}\``).join(', ')}`;
}

function condition(
  f: GeneratedFile,
  discriminator: string,
  variant: UnionVariant,
  hasDefault: boolean,
): string {
  // A default variant has no discriminator: TypeScript needs `in` before it reads the member.
  const present = hasDefault ? [`${f.string(discriminator)} in value`] : [];
  const checks = [...present, `value.${discriminator} === ${f.string(variant.tag ?? '')}`];
  for (const property of variant.select) checks.push(`${f.string(property)} in value`);
  return checks.join(' && ');
}
