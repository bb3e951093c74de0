// An IDL file as the comparator reads it: the raw JSON (pointers match the file), the model, and
// the source text that turns a pointer into line:column.
import { readFileSync } from 'node:fs';
import type { RawIdl } from '../idl/build-model.js';
import { TYPE_SECTIONS, buildModel } from '../idl/build-model.js';
import { withCapabilityProperties } from '../idl/capabilities.js';
import { loadIdlText } from '../idl/load.js';
import type { Model, SchemaNode } from '../idl/model.js';
import { refName } from '../idl/model.js';
import { parseIdlSource, pathToPointer, type IdlSource } from '../idl/source.js';

export interface IdlDocument {
  readonly source: IdlSource;
  readonly raw: RawIdl;
  readonly model: Model;
  /** The protocol version the document describes (`meta.protocolVersion`). */
  readonly version: number;
}

/** A schema fragment and where it sits in its file. */
export interface SchemaAt {
  readonly schema: unknown;
  readonly pointer: string;
}

export function loadIdlDocument(path: string, displayPath: string): IdlDocument {
  return idlDocumentFromText(readFileSync(path, 'utf8'), displayPath);
}

/** Checks the IDL as the generator does (`check: false` only for tests that build broken IDLs). */
export function idlDocumentFromText(
  text: string,
  displayPath: string,
  options: { check: boolean } = { check: true },
): IdlDocument {
  const source = parseIdlSource(displayPath, text);
  // The capabilities' properties as the generator writes them, so the comparator sees them.
  const raw = withCapabilityProperties(source.value as RawIdl);
  const model = options.check ? loadIdlText(text, displayPath) : buildModel(raw);
  return { source, raw, model, version: model.meta.protocolVersion };
}

/** The named type's schema and pointer, or null when the document has no such type. */
export function typeAt(doc: IdlDocument, name: string): SchemaAt | null {
  for (const section of TYPE_SECTIONS) {
    const schema = doc.raw[section][name];
    if (schema !== undefined) return { schema, pointer: `/${section}${pathToPointer([name])}` };
  }
  return null;
}

const ANNOTATIONS = new Set(['description', 'examples', 'title', '$comment', 'default']);

/**
 * Follows `$ref` (and a lone `allOf` member) to the schema that validates. Constraint keywords
 * beside a `$ref` apply too (the bundle lowers them to `allOf`), so they are merged in.
 */
export function resolveSchema(doc: IdlDocument, node: SchemaAt): SchemaAt {
  let current = node;
  for (let hops = 0; hops < 32; hops++) {
    const schema = current.schema;
    if (typeof schema !== 'object' || schema === null) return current;
    const s = schema as SchemaNode;
    const allOf = s['allOf'];
    if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(s).length === 1) {
      current = { schema: allOf[0], pointer: `${current.pointer}/allOf/0` };
      continue;
    }
    const name = refName(s);
    const target = name === null ? null : typeAt(doc, name);
    if (!target) return current;
    const siblings = Object.entries(s).filter(
      ([key]) => key !== '$ref' && !ANNOTATIONS.has(key) && !key.startsWith('x-'),
    );
    current =
      siblings.length === 0
        ? target
        : {
            schema: { ...(target.schema as SchemaNode), ...Object.fromEntries(siblings) },
            pointer: target.pointer,
          };
  }
  throw new Error(`$ref chain too long at ${node.pointer}`);
}
