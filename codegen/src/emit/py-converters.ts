// IDL model + schema bundle → converters.py: one straight-line decoder per generated dataclass and
// per discriminated union. The generator knows every field, so a decoder sets each slot of its
// dataclass in turn instead of walking wire_names.py at run time; any value it cannot take that way
// (unknown members, a `null` kept in `extra`, a missing member, a wrong shape) goes to the
// table-walking reference, python/src/dsh_sdk/table_codec.py, so both give the same result.
import type { Model, TypeDef } from '../idl/model.js';
import { constantCase, snakeCase } from '../idl/names.js';
import type { OutputFile } from '../printer/generated-file.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import type { SchemaBundle } from '../schema/bundle.js';
import { flattenVariants } from '../schema/validation.js';
import type { Emitter } from './emitter.js';
import { pyFile } from './emitter.js';
import type { PyExpr } from './py-literals.js';
import {
  flatPy,
  layoutPyCompact,
  layoutPySum,
  pyCallExpr,
  pyDocstring,
  pyStr,
  PY_LINE_LENGTH,
} from './py-literals.js';
import type { Conversion, WireField } from './py-wire-fields.js';
import { classNames, wireFields } from './py-wire-fields.js';

export const pyConvertersEmitter: Emitter = {
  name: 'py-converters',
  target: 'python',
  emit({ model, bundle, target }) {
    return [emitConverters(model, bundle, target)];
  },
};

/** `SessionEvent` → `decode_session_event`. */
export const decoderName = (typeName: string): string => `decode_${snakeCase(typeName)}`;
const tagsName = (typeName: string): string => `_${constantCase(typeName)}_BY_TAG`;

const HELPERS = `def _decode_list(values: Any, decode: Callable[[Any], T]) -> list[T]:
    if not isinstance(values, list):
        raise CodecError(f"expected an array, got {type(values).__name__}")
    return [decode(item) for item in values]


def _optional(raw: Any, decode: Callable[[Any], T]) -> T | None:
    return None if raw is ABSENT else decode(raw)


def _optional_list(raw: Any, decode: Callable[[Any], T]) -> list[T] | None:
    return None if raw is ABSENT else _decode_list(raw, decode)


# The decoders build a frozen dataclass without its \`__init__\`, which sets each field through
# \`object.__setattr__\`: a new instance and one slot setter per field take about a third of the time.
# \`slot_setters\` checks at import that every field of the class is named, so none is left unset.
_new: Final = object.__new__`;

const MAP_HELPERS = `def _decode_map(values: Any, decode: Callable[[Any], T]) -> dict[str, T]:
    if not isinstance(values, dict):
        raise CodecError(f"expected an object, got {type(values).__name__}")
    return {key: decode(item) for key, item in values.items()}


def _optional_map(raw: Any, decode: Callable[[Any], T]) -> dict[str, T] | None:
    return None if raw is ABSENT else _decode_map(raw, decode)`;

const hasMap = (c: Conversion): boolean =>
  c.kind === 'map' || (c.kind === 'array' && hasMap(c.items));

export function emitConverters(
  model: Model,
  bundle: SchemaBundle,
  target: ProtocolTargets,
): OutputFile {
  const f = pyFile(target, 'converters.py', 'py-converters');
  const { tableCodec } = f.python.runtime;
  f.preamble(
    pyDocstring(
      `Straight-line decoders of the ${model.meta.title}: one function per dataclass and union.

A class's decoder builds it field by field when the value is an object of members the class knows
(and no \`null\` the class keeps in \`extra\`). Any other value goes to \`${tableCodec}\`, the
table-walking reference, which keeps what this version does not know: the result is the same.`,
    ),
  );
  f.import('annotations', '__future__');
  for (const name of ['Any', 'Final', 'TypeVar']) f.import(name, 'typing');
  f.import('Callable', 'collections.abc');
  f.import('models', f.python.genPackage, { as: 'm' });
  f.import('CodecError', tableCodec);
  // The one sentinel for an absent member, as in the validators and peers (`None` may be a value).
  f.import('ABSENT', f.python.runtime.json);
  f.print`T = TypeVar("T")`;
  f.blank(2);
  f.raw(HELPERS);
  const classes = classNames(bundle);
  const fields = new Map(classes.map((name) => [name, wireFields(name, bundle, model)]));
  // Objects of any member names whose values decode (absent from most protocols): one more helper.
  const conversions = [...fields.values()].flat().map((w) => w.conversion);
  if (conversions.some(hasMap)) f.raw(`\n\n${MAP_HELPERS}`);
  for (const name of classes) emitClassDecoder(f, name, fields.get(name) ?? []);
  const unions = model.types.filter((t) => t.union !== null);
  for (const type of unions) emitUnionDecoder(f, type, type.union?.discriminator ?? null);
  for (const type of unions) emitTagTable(f, type.name, model);
  emitDecoderTable(f, [...classes, ...unions.map((t) => t.name)]);
  return f.finish();
}

function emitClassDecoder(f: GeneratedFile, name: string, fields: readonly WireField[]): void {
  const decodeClass = f.import('decode_class', f.python.runtime.tableCodec);
  const slotSetters = f.import('slot_setters', f.python.runtime.wireObject);
  const setters = [...fields.map((w) => w.attribute), EXTRA];
  f.blank(2);
  const targets = setters.map((attribute) => setterName(name, attribute));
  const call = pyCallExpr(slotSetters, [`m.${name}`, ...setters.map(pyStr)]);
  if (targets.length === 1) {
    f.raw(layoutPyCompact(call, 0, `(${targets[0]},) = `));
  } else {
    f.raw(['(', ...targets.map((t) => `    ${t},`)].join('\n'));
    f.raw(layoutPyCompact(call, 0, ') = '));
  }
  f.blank(2);
  f.raw(defLine(name));
  if (fields.length === 0) {
    f.print`    if isinstance(value, dict):`;
    f.print`        built = _new(m.${name})`;
    const keepAll = `        ${setterName(name, EXTRA)}(built, dict(value))`;
    const note = '# the schema names no member: all are kept';
    const inline = `${keepAll}  ${note}`;
    f.raw(inline.length <= PY_LINE_LENGTH ? inline : `        ${note}\n${keepAll}`);
    f.print`        return built`;
    f.print`    return ${decodeClass}(m.${name}, value)`;
    return;
  }
  f.print`    if isinstance(value, dict):`;
  const required = fields.filter((w) => w.required);
  const optional = fields.filter((w) => !w.required);
  let indent = '        ';
  if (required.length > 0) {
    f.print`        try:`;
    for (const w of required) f.raw(`            ${local(w)} = value[${pyStr(w.wireName)}]`);
    f.print`        except KeyError:`;
    f.print`            pass  # a required member is missing: the reference says which`;
    f.print`        else:`;
    indent = '            ';
  }
  for (const w of optional) f.raw(`${indent}${local(w)} = value.get(${pyStr(w.wireName)}, ABSENT)`);
  // Only members the class knows (counted, as a set comparison costs more), and no `null` where the
  // schema also allows absence: the reference keeps that in `extra`.
  let known = String(required.length);
  if (optional.length > 0) {
    const terms = [known, ...optional.map((w) => `(${local(w)} is not ABSENT)`)];
    f.raw(layoutPySum(terms, indent.length, 'known = '));
    known = 'known';
  }
  const conditions = [
    `len(value) == ${known}`,
    ...optional.filter((w) => w.nullable).map((w) => `${local(w)} is not None`),
  ];
  printCondition(f, indent, conditions);
  const body = `${indent}    `;
  f.raw(`${body}built = _new(m.${name})`);
  for (const w of fields) {
    f.raw(
      layoutPyCompact(
        pyCallExpr(setterName(name, w.attribute), ['built', fieldValue(w)]),
        body.length,
      ),
    );
  }
  f.raw(`${body}${setterName(name, EXTRA)}(built, {})`);
  f.raw(`${body}return built`);
  f.print`    return ${decodeClass}(m.${name}, value)`;
}

const EXTRA = 'extra';
/** Locals named after the attributes, unless one would hide a name the decoder uses. */
const TAKEN_LOCALS = new Set(['value', 'built', 'known', 'isinstance', 'len', 'dict', 'm']);
const local = (w: WireField): string =>
  TAKEN_LOCALS.has(w.attribute) ? `${w.attribute}_` : w.attribute;
/** `TextBlock`, `text` → `_set_text_block_text`. */
const setterName = (typeName: string, attribute: string): string =>
  `_set_${snakeCase(typeName)}_${attribute}`;

/** `if a and b:`, or one condition per line inside parentheses where that is too long (as ruff). */
function printCondition(f: GeneratedFile, indent: string, conditions: readonly string[]): void {
  const oneLine = `${indent}if ${conditions.join(' and ')}:`;
  if (oneLine.length <= PY_LINE_LENGTH) {
    f.raw(oneLine);
    return;
  }
  f.raw(`${indent}if (`);
  conditions.forEach((c, i) => f.raw(`${indent}    ${i === 0 ? '' : 'and '}${c}`));
  f.raw(`${indent}):`);
}

/** The value a field is set to, from its local: nested objects and unions through their decoders. */
function fieldValue(w: WireField): PyExpr {
  const c = w.conversion;
  const raw = local(w);
  if (c.kind === 'scalar') return w.required ? raw : `None if ${raw} is ABSENT else ${raw}`;
  const decoded = decodedValue(c, raw, w.required);
  // A required member that admits null: the wire's null stays None (optional ones keep it in `extra`).
  if (!w.required || !w.nullable) return decoded;
  return `None if ${raw} is None else ${flatPy(decoded)}`;
}

function decodedValue(c: Conversion, raw: string, required: boolean): PyExpr {
  if (c.kind === 'array') {
    return pyCallExpr(required ? '_decode_list' : '_optional_list', [raw, itemDecoder(c.items)]);
  }
  if (c.kind === 'map') {
    return pyCallExpr(required ? '_decode_map' : '_optional_map', [raw, itemDecoder(c.values)]);
  }
  if (c.kind === 'scalar') return raw;
  return required
    ? pyCallExpr(decoderName(c.typeName), [raw])
    : pyCallExpr('_optional', [raw, decoderName(c.typeName)]);
}

function itemDecoder(items: Conversion): string {
  if (items.kind === 'object' || items.kind === 'union') return decoderName(items.typeName);
  throw new Error(
    'py-converters: an array or map of arrays or maps of objects has no straight-line decoder; name the inner one as a type in the IDL',
  );
}

function emitUnionDecoder(f: GeneratedFile, type: TypeDef, discriminator: string | null): void {
  const name = type.name;
  const tableDecode = f.import('decode', f.python.runtime.tableCodec, { as: 'decode_by_tables' });
  f.blank(2);
  f.raw(defLine(name));
  if (discriminator === null) {
    f.print`    # Untagged: the variants are told apart by shape, as the reference does.`;
    // A one-variant alias is the class itself, which the reference's result is typed as already.
    if (type.union?.variants.length === 1) f.print`    return ${tableDecode}(m.${name}, value)`;
    else f.raw(castReturn(f.import('cast', 'typing'), name, tableDecode));
    return;
  }
  const cast = f.import('cast', 'typing');
  f.print`    if isinstance(value, dict):`;
  f.print`        tag = value.get(${pyStr(discriminator)})`;
  const lookup = `${tagsName(name)}.get(tag) if isinstance(tag, str) else None`;
  const oneLine = `        decode = ${lookup}`;
  f.raw(
    oneLine.length <= PY_LINE_LENGTH
      ? oneLine
      : `        decode = (\n            ${lookup}\n        )`,
  );
  f.print`        if decode is not None:`;
  f.print`            return decode(value)`;
  f.print`    # An unknown tag, variants told apart by their members, or not an object: the reference.`;
  f.raw(castReturn(cast, name, tableDecode));
}

/** `def decode_x(value: Any) -> m.X:`, split as ruff splits it where it is too long. */
function defLine(name: string): string {
  const oneLine = `def ${decoderName(name)}(value: Any) -> m.${name}:`;
  if (oneLine.length <= PY_LINE_LENGTH) return oneLine;
  return `def ${decoderName(name)}(\n    value: Any,\n) -> m.${name}:`;
}

function castReturn(cast: string, name: string, tableDecode: string): string {
  const args = `m.${name}, ${tableDecode}(m.${name}, value)`;
  const oneLine = `    return ${cast}(${args})`;
  return oneLine.length <= PY_LINE_LENGTH ? oneLine : `    return ${cast}(\n        ${args}\n    )`;
}

/** The tags that select one variant with nothing else to check (the others go to the reference). */
function emitTagTable(f: GeneratedFile, name: string, model: Model): void {
  const type = model.types.find((t) => t.name === name);
  if (!type?.union || type.union.discriminator === null) return;
  const known = flattenVariants(type, model).filter((v) => v.tag !== null);
  const counts = new Map<string, number>();
  for (const v of known) counts.set(v.tag ?? '', (counts.get(v.tag ?? '') ?? 0) + 1);
  const direct = known.filter((v) => v.select.length === 0 && counts.get(v.tag ?? '') === 1);
  const mapping = f.import('Mapping', 'collections.abc');
  f.blank(2);
  const valueType = `${mapping}[str, Callable[[Any], m.${name}]]`;
  let head = `${tagsName(name)}: Final[${valueType}] = {`;
  if (head.length > PY_LINE_LENGTH) head = `${tagsName(name)}: Final[\n    ${valueType}\n] = {`;
  f.raw(direct.length === 0 ? `${head}}` : head);
  if (direct.length === 0) return;
  for (const v of direct) f.raw(`    ${pyStr(v.tag ?? '')}: ${decoderName(v.typeName)},`);
  f.print`}`;
}

function emitDecoderTable(f: GeneratedFile, names: readonly string[]): void {
  f.blank(2);
  f.print`DECODERS: Final[${f.import('Mapping', 'collections.abc')}[str, Callable[[Any], Any]]] = {`;
  for (const name of names) f.raw(`    ${pyStr(name)}: ${decoderName(name)},`);
  f.print`}`;
  f.raw(pyDocstring('The decoder of every dataclass and union, by IDL type name.'));
}
