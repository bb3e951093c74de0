// The methods of a source schema: every definition annotated with a method (the settings name the
// keyword, e.g. `x-method`) is that method's params or result, and the side annotation says who
// handles it. A definition is a method's params when the schema refers to it from a `params`
// member, its result when from a `result` member (the JSON-RPC message definitions do both); a
// method with a result is a request, one without is a notification.
import type { Direction, MethodKind, SchemaNode } from '../idl/model.js';
import { camelCase } from '../idl/names.js';
import type { ImportSettings } from './settings.js';
import type { SourceSchema } from './source-schema.js';

/** A method as the IDL writes it (`methods[]`). */
export interface ImportedMethod {
  readonly name: string;
  readonly method: string;
  readonly direction: Direction;
  readonly kind: MethodKind;
  readonly params: string | null;
  readonly result?: string;
  readonly description: string;
  readonly optional?: true;
  readonly match?: 'prefix';
}

/** A problem with the annotations: which definition, and what is wrong. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

export function collectMethods(source: SourceSchema, settings: ImportSettings): ImportedMethod[] {
  const roles = payloadRoles(source);
  const byWireName = new Map<string, { params?: string; result?: string; side: string }>();
  for (const [name, schema] of Object.entries(source.definitions)) {
    const wire = schema[settings.annotations.method];
    if (typeof wire !== 'string') continue;
    const side = String(schema[settings.annotations.side] ?? '');
    const entry = byWireName.get(wire) ?? { side };
    const role = roles.get(name);
    if (role === undefined)
      throw new ImportError(
        `${source.label}: ${name} is annotated with method "${wire}" but no message refers to it from a params or result member`,
      );
    if (entry[role] !== undefined)
      throw new ImportError(
        `${source.label}: ${wire} has two ${role} definitions: ${entry[role]} and ${name}`,
      );
    entry[role] = name;
    byWireName.set(wire, entry);
  }
  const methods = [...byWireName.entries()].map(([wire, entry]) =>
    toMethod(wire, entry, source, settings),
  );
  return [...methods, ...settings.extensions.map(extensionMethod)];
}

function toMethod(
  wire: string,
  entry: { params?: string; result?: string; side: string },
  source: SourceSchema,
  settings: ImportSettings,
): ImportedMethod {
  const direction = settings.sides[entry.side];
  if (direction === undefined)
    throw new ImportError(
      `${source.label}: ${wire} is handled by side "${entry.side}", which ${settings.path} does not map: add "${entry.side}" to "sides"`,
    );
  if (entry.params === undefined)
    throw new ImportError(`${source.label}: ${wire} has a result but no params definition`);
  const description = String(source.definitions[entry.params]?.['description'] ?? '');
  return {
    name: settings.methodNames[wire] ?? camelCase(wire.replace(/^[^A-Za-z]+/, '')),
    method: wire,
    direction,
    kind: entry.result ? 'request' : 'notification',
    params: entry.params,
    ...(entry.result ? { result: entry.result } : {}),
    description: description || `The \`${wire}\` ${entry.result ? 'request' : 'notification'}.`,
    ...(settings.optionalMethods.includes(wire) ? { optional: true as const } : {}),
  };
}

function extensionMethod(e: ImportSettings['extensions'][number]): ImportedMethod {
  return {
    name: e.name,
    method: e.prefix,
    direction: e.direction,
    kind: e.kind,
    params: e.params,
    ...(e.result ? { result: e.result } : {}),
    description: e.description,
    optional: true,
    match: 'prefix',
  };
}

/** Each definition referred to from a `params` or a `result` member, anywhere in the document. */
function payloadRoles(source: SourceSchema): Map<string, 'params' | 'result'> {
  const roles = new Map<string, 'params' | 'result'>();
  const visit = (node: unknown, role: 'params' | 'result' | null): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, role));
    if (typeof node !== 'object' || node === null) return;
    const schema = node as SchemaNode;
    const ref = schema['$ref'];
    if (role !== null && typeof ref === 'string' && ref.startsWith(source.refPrefix))
      roles.set(ref.slice(source.refPrefix.length), role);
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [member, sub] of Object.entries(value))
          visit(sub, member === 'params' || member === 'result' ? member : role);
      } else visit(value, role);
    }
  };
  visit(source.document, null);
  return roles;
}
