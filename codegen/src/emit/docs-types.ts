// The types sections of the protocol reference: per type its description, its members (with
// nullability, format, default, lenient decoding and version notes), its variants or values, and
// an example.
import type { Field, Model, SchemaNode, TypeDef, Union } from '../idl/model.js';
import { refName } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import { versionSentences } from './version-notes.js';

export const anchor = (name: string) => `[\`${name}\`](#${name.toLowerCase()})`;
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A section of types under `heading`; nothing when the section has none. */
export function emitTypes(
  f: GeneratedFile,
  model: Model,
  section: TypeDef['section'],
  heading: string,
): void {
  const types = model.types.filter((t) => t.section === section);
  if (types.length === 0) return;
  f.print`## ${heading}`;
  f.blank();
  for (const type of types) {
    f.print`### ${type.name}`;
    f.blank();
    f.raw(type.description);
    f.blank();
    emitTypeBody(f, type);
    f.print`Example: \`${JSON.stringify(type.examples[0])}\``;
    f.blank();
  }
}

function emitTypeBody(f: GeneratedFile, type: TypeDef): void {
  if (type.bases.length > 0) {
    const bases = type.bases.map(anchor).join(' and ');
    f.raw(`Has every member of ${bases}${type.fields.length > 0 ? ', and:' : '.'}`);
    f.blank();
  }
  if (type.kind === 'object' && type.fields.length > 0) {
    f.print`| field | type | required | description |`;
    f.print`|---|---|---|---|`;
    for (const field of type.fields) {
      const description = [field.description, ...memberNotes(field), ...versionSentences(field)];
      f.print`| \`${field.name}\` | ${fieldType(field)} | ${field.required ? 'yes' : 'no'} | ${cell(description.join(' ').trim())} |`;
    }
    f.blank();
  } else if (type.union) {
    emitUnionBody(f, type.union);
  } else if (type.kind === 'object' && type.bases.length > 0) {
    // Its members are its bases', said above.
  } else if (type.values.length > 0) {
    f.print`${type.kind === 'openEnum' ? 'Open string enum (other values pass through)' : 'One of'}:`;
    f.blank();
    for (const v of type.values) {
      const words = [v.description ?? '', ...versionSentences(v)].join(' ').trim();
      f.print`- \`${v.value}\`${words ? ` — ${words}` : ''}`;
    }
    f.blank();
  } else {
    f.print`Schema: \`${constraints(type.schema)}\``;
    f.blank();
  }
}

function emitUnionBody(f: GeneratedFile, union: Union): void {
  if (union.discriminator === null) {
    f.raw('Untagged union: a value is the first of these whose required members are all present:');
    f.blank();
    for (const v of union.variants) {
      const members = v.select.map((name) => `\`${name}\``).join(', ');
      f.print`- ${anchor(v.typeName)}${members ? ` (with ${members})` : ''}`;
    }
    f.blank();
    return;
  }
  f.print`${union.isOpen ? 'Open union' : 'Union'} on \`${union.discriminator}\`:`;
  f.blank();
  for (const v of union.variants) {
    const when = v.tag ? `\`${v.tag}\`` : v.isDefault ? 'absent' : 'any other value';
    f.print`- ${when}: ${anchor(v.typeName)}`;
  }
  f.blank();
}

/** What a member's schema says beyond its type: its format, default, and lenient decoding. */
function memberNotes(field: Field): string[] {
  const notes: string[] = [];
  const format = field.schema['format'];
  if (typeof format === 'string') notes.push(`Format: \`${format}\`.`);
  if ('default' in field.schema)
    notes.push(`Default: \`${JSON.stringify(field.schema['default'])}\`.`);
  const lenience = field.lenience;
  if (lenience?.defaultOnError)
    notes.push('Read leniently: an invalid value reads as the default.');
  if (lenience?.skipInvalidItems) notes.push('Read leniently: invalid items are dropped.');
  if (lenience?.defaultOnNull) notes.push('Read leniently: `null` reads as the default.');
  return notes;
}

function fieldType(field: Field): string {
  const target = field.isArray ? field.schema['items'] : field.schema;
  const name = refName(target) ?? refName((target as SchemaNode | undefined)?.['allOf'] as unknown);
  const base = field.typeRef
    ? anchor(field.typeRef)
    : name
      ? anchor(name)
      : `\`${constraints(target as SchemaNode)}\``;
  const arrayNote = field.isArray
    ? ` array${typeof field.schema['minItems'] === 'number' ? ` (≥ ${String(field.schema['minItems'])})` : ''}`
    : '';
  // A named type that admits null says so; an inline schema shows its `null` itself.
  const orNull = field.isNullable && (field.typeRef || name) ? ' or `null`' : '';
  return `${base}${arrayNote}${orNull}`;
}

/** Keywords the notes of a member say in words (memberNotes). */
const IN_NOTES = new Set([
  'format',
  'default',
  'x-deserialize-default-on-error',
  'x-deserialize-skip-invalid-items',
  'x-deserialize-default-on-null',
  // Types TypeScript only; not a constraint.
  'x-ts-type',
]);

/** The validation keywords of a schema, compactly. */
function constraints(schema: SchemaNode | undefined): string {
  if (!schema) return 'any';
  const { description: _d, examples: _e, title: _t, ...rest } = schema;
  const shown = Object.entries(rest).filter(([key]) => !IN_NOTES.has(key));
  return shown.length === 0 ? 'any' : cell(JSON.stringify(Object.fromEntries(shown)));
}
