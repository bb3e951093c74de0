// IDL model + schema bundle → wire_names.py: for every generated dataclass its fields (Python name,
// wire name, how the value converts, required or not; see py-wire-fields.ts); for every union its
// dispatch table. codec.py reads only these tables, so no wire name is written by hand in Python. The
// types the tables are made of are hand-written, in python/src/dsh_sdk/wire_tables.py; the file
// imports the ones it uses.
import type { Model, TypeDef } from '../idl/model.js';
import { refName } from '../idl/model.js';
import type { OutputFile } from '../printer/generated-file.js';
import type { SchemaBundle } from '../schema/bundle.js';
import { flattenVariants } from '../schema/validation.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { pyFile } from './emitter.js';
import { allProperties, pyTypedBundle } from './py-typed-bundle.js';
import type { PyExpr } from './py-literals.js';
import {
  layoutPy,
  pyCallExpr,
  pyDocstring,
  pyStr,
  pyTupleExpr,
  PY_LINE_LENGTH,
} from './py-literals.js';
import type { Conversion, WireField } from './py-wire-fields.js';
import { classNames, conversionOfType, wireFields } from './py-wire-fields.js';

/** The names of the runtime's wire tables module (hand-written) that the tables are built from. */
type TableType =
  | 'ArrayOf'
  | 'ClassInfo'
  | 'Conversion'
  | 'FieldInfo'
  | 'ObjectOf'
  | 'SCALAR'
  | 'UnionInfo'
  | 'UnionOf'
  | 'MapOf'
  | 'UntaggedUnionInfo'
  | 'UntaggedVariantInfo'
  | 'VariantInfo';

export function emitWireNames(
  model: Model,
  bundle: SchemaBundle,
  target: ProtocolTargets,
): OutputFile {
  // The annotations of the three tables name these; the entries add what they use.
  const uses = new Set<TableType>(['ClassInfo', 'UnionInfo', 'Conversion']);
  const tables = [
    classesTable(model, bundle, uses),
    unionsTable(model, bundle, uses),
    typesTable(model, bundle, uses),
  ];
  const f = pyFile(target, 'wire_names.py', 'py-bindings');
  f.preamble(
    pyDocstring(`Wire names of the ${model.meta.title}: the tables codec.py converts by.`),
  );
  // The tables are built as text before the file exists: they record what they use in `uses`.
  f.import('annotations', '__future__');
  f.import('Mapping', 'collections.abc');
  f.import('Final', 'typing');
  f.import('models', f.python.genPackage, { as: 'm' });
  for (const name of uses) f.import(name, f.python.runtime.wireTables);
  tables.forEach((table, i) => {
    if (i > 0) f.blank();
    f.raw(table.join('\n'));
  });
  return f.finish();
}

function classesTable(model: Model, bundle: SchemaBundle, uses: Set<TableType>): string[] {
  const lines = ['CLASSES: Final[Mapping[str, ClassInfo]] = {'];
  for (const name of classNames(bundle)) {
    const fields = wireFields(name, bundle, model).map((w) => fieldInfo(w, uses));
    const info = pyCallExpr('ClassInfo', [`m.${name}`, pyTupleExpr(fields)]);
    lines.push(layoutPy(info, 4, `${pyStr(name)}: `, ','));
  }
  lines.push(
    '}',
    pyDocstring('Every generated dataclass by name, with its fields in schema order.'),
  );
  return lines;
}

function fieldInfo(w: WireField, uses: Set<TableType>): PyExpr {
  const args = [pyStr(w.attribute), pyStr(w.wireName), pyConversion(w.conversion, uses)];
  if (w.required) args.push('required=True');
  if (w.nullable) args.push('nullable=True');
  uses.add('FieldInfo');
  return pyCallExpr('FieldInfo', args);
}

function pyConversion(c: Conversion, uses: Set<TableType>): string {
  switch (c.kind) {
    case 'scalar':
      uses.add('SCALAR');
      return 'SCALAR';
    case 'object':
      uses.add('ObjectOf');
      return `ObjectOf(${pyStr(c.typeName)})`;
    case 'union':
      uses.add('UnionOf');
      return `UnionOf(${pyStr(c.typeName)})`;
    case 'array':
      uses.add('ArrayOf');
      return `ArrayOf(${pyConversion(c.items, uses)})`;
    case 'map':
      uses.add('MapOf');
      return `MapOf(${pyConversion(c.values, uses)})`;
  }
}

function unionsTable(model: Model, bundle: SchemaBundle, uses: Set<TableType>): string[] {
  const unions = model.types.filter((t) => t.union !== null);
  // Untagged unions (absent from most protocols) widen the table's value type.
  const untagged = unions.some((t) => t.union?.discriminator === null);
  if (untagged) uses.add('UntaggedUnionInfo');
  const valueType = untagged ? 'UnionInfo | UntaggedUnionInfo' : 'UnionInfo';
  const lines = [`UNIONS: Final[Mapping[str, ${valueType}]] = {`];
  for (const type of unions) {
    const info =
      type.union?.discriminator === null
        ? untaggedUnionInfo(type, bundle, uses)
        : taggedUnionInfo(type, model, uses);
    lines.push(layoutPy(info, 4, `${pyStr(type.name)}: `, ','));
  }
  // A protocol without unions: `{}` on one line, as ruff writes it.
  if (unions.length === 0) lines[0] = `${lines[0] ?? ''}}`;
  else lines.push('}');
  lines.push(
    pyDocstring(
      'Every discriminated union by name: known variants flattened in dispatch order, then the unknown one.',
    ),
  );
  return lines;
}

function taggedUnionInfo(type: TypeDef, model: Model, uses: Set<TableType>): PyExpr {
  const flat = flattenVariants(type, model);
  // As the validators: the first variant without a tag (unknown or default) takes the rest.
  const unknown = flat.find((v) => v.tag === null);
  const variants = flat
    .filter((v) => v.tag !== null)
    .map((v) =>
      pyCallExpr('VariantInfo', [
        pyStr(v.tag ?? ''),
        pyTupleExpr(v.select.map(pyStr)),
        pyStr(v.typeName),
      ]),
    );
  if (variants.length > 0) uses.add('VariantInfo');
  return pyCallExpr('UnionInfo', [
    `discriminator=${pyStr(type.union?.discriminator ?? '')}`,
    { ...pyTupleExpr(variants), head: 'variants=(' },
    `unknown=${unknown ? pyStr(unknown.typeName) : 'None'}`,
    `alias=m.${type.name}`,
  ]);
}

/**
 * An untagged union's variants by shape: an object, or an array of objects (its items' members
 * decide), selected by the required members no earlier variant of that shape requires.
 */
function untaggedUnionInfo(type: TypeDef, bundle: SchemaBundle, uses: Set<TableType>): PyExpr {
  const seen = { object: new Set<string>(), array: new Set<string>() };
  const variants = (type.union?.variants ?? []).map((v) => {
    const shape = variantShape(v.typeName, bundle);
    const select = [...shape.required].filter((key) => !seen[shape.kind].has(key));
    for (const key of shape.required) seen[shape.kind].add(key);
    return pyCallExpr('UntaggedVariantInfo', [
      shape.kind === 'array' ? 'True' : 'False',
      pyTupleExpr(select.map(pyStr)),
      pyStr(v.typeName),
    ]);
  });
  uses.add('UntaggedVariantInfo');
  return pyCallExpr('UntaggedUnionInfo', [
    { ...pyTupleExpr(variants), head: 'variants=(' },
    `alias=m.${type.name}`,
  ]);
}

function variantShape(
  name: string,
  bundle: SchemaBundle,
): { kind: 'object' | 'array'; required: Set<string> } {
  const schema = bundle.definitions[name] ?? {};
  const items = schema['type'] === 'array' ? refName(schema['items']) : null;
  if (schema['type'] === 'array') {
    return { kind: 'array', required: items ? allProperties(items, bundle).required : new Set() };
  }
  return { kind: 'object', required: allProperties(name, pyTypedBundle(bundle)).required };
}

function typesTable(model: Model, bundle: SchemaBundle, uses: Set<TableType>): string[] {
  const lines = ['TYPES: Final[Mapping[str, Conversion]] = {'];
  for (const name of Object.keys(bundle.definitions)) {
    const conversion = pyConversion(conversionOfType(name, bundle, model), uses);
    const line = `    ${pyStr(name)}: ${conversion},`;
    // `ObjectOf("<a long name>")` split as ruff splits it.
    const call = /^(\w+)\((".*")\)$/.exec(conversion);
    if (line.length > PY_LINE_LENGTH && call) {
      lines.push(`    ${pyStr(name)}: ${call[1]}(`, `        ${call[2]}`, '    ),');
    } else lines.push(layoutPy(conversion, 4, `${pyStr(name)}: `, ','));
  }
  lines.push('}', pyDocstring('How a value of every named type converts, by type name.'));
  return lines;
}
