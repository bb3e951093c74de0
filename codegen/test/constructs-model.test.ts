// The schema constructs a second protocol brought (ACP), as the model reads them, and the checks
// that place them: each fixture holds one construct.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadIdlFile, loadIdlText } from '../src/idl/load.js';
import type { Model, TypeDef } from '../src/idl/model.js';
import { findType } from '../src/idl/model.js';
import { IdlError } from '../src/idl/source.js';
import { fixturePath } from './helpers/fixture-protocol.js';

const load = (name: string): Model => loadIdlFile(fixturePath(name));
const field = (type: TypeDef, name: string) => type.fields.find((f) => f.name === name);

type Json = Record<string, unknown>;

/** The object at `path` in a parsed IDL, to edit in place. */
function at(raw: Json, ...path: (string | number)[]): Json {
  return path.reduce<Json>((node, key) => node[key] as Json, raw);
}

/** Loads `fixture` with `edit` applied to its JSON; returns the problems. */
function problemsOf(fixture: string, edit: (raw: Json) => void) {
  const raw = JSON.parse(readFileSync(fixturePath(fixture), 'utf8')) as Json;
  edit(raw);
  try {
    loadIdlText(JSON.stringify(raw, null, 2), `${fixture}.idl.json`);
  } catch (error) {
    if (error instanceof IdlError)
      return error.problems.map((p) => `${p.pointer}: ${p.message} | ${p.hint}`);
    throw error;
  }
  return [];
}

describe('the model of the new constructs', () => {
  it('sees the type behind a $ref wrapped in allOf', () => {
    const note = findType(load('ref-in-allof'), 'Note');
    expect(field(note, 'author')).toMatchObject({
      typeRef: 'Person',
      description: 'Who wrote it.',
    });
    expect(field(note, 'reviewers')).toMatchObject({ typeRef: 'Person', isArray: true });
  });

  it('marks members that admit null, through a type array or anyOf with null', () => {
    const note = findType(load('nullable'), 'Note');
    expect(note.fields.map((f) => [f.name, f.isNullable, f.typeRef, f.isArray])).toEqual([
      ['title', true, null, false],
      ['author', true, 'Person', false],
      ['tags', true, null, true],
    ]);
  });

  it('reads a tagged union whose variants extend their content, and its default variant', () => {
    const model = load('tagged-variants');
    expect(findType(model, 'Block').union).toEqual({
      discriminator: 'type',
      isOpen: false,
      variants: [
        { typeName: 'TextBlock', tag: 'text', select: [], isDefault: false },
        { typeName: 'ImageBlock', tag: 'image', select: [], isDefault: false },
        { typeName: 'PlainBlock', tag: null, select: [], isDefault: true },
      ],
    });
    const text = findType(model, 'TextBlock');
    expect(text).toMatchObject({ kind: 'object', bases: ['TextContent'] });
    expect(text.fields.map((f) => f.name)).toEqual(['type']);
  });

  it('selects untagged variants by the required members no earlier variant has', () => {
    expect(findType(load('untagged-union'), 'Resource').union).toEqual({
      discriminator: null,
      isOpen: false,
      variants: [
        { typeName: 'TextResource', tag: null, select: ['uri', 'text'], isDefault: false },
        { typeName: 'BlobResource', tag: null, select: ['blob'], isDefault: false },
      ],
    });
  });

  it('keeps a _meta member as an open object that admits null', () => {
    const meta = field(findType(load('meta-member'), 'Note'), '_meta');
    expect(meta).toMatchObject({ isNullable: true, typeRef: null, required: false });
  });

  it('reads directions both ways, optional methods and prefix families', () => {
    const methods = load('extension-methods').methods.map((m) => [
      m.wireName,
      m.direction,
      m.kind,
      m.isOptional,
      m.isPrefix,
    ]);
    expect(methods).toEqual([
      ['session/prompt', 'clientToServer', 'request', false, false],
      ['fs/read', 'serverToClient', 'request', true, false],
      ['session/cancel', 'clientToServer', 'notification', false, false],
      ['session/update', 'serverToClient', 'notification', false, false],
      ['$/cancel_request', 'both', 'notification', true, false],
      ['_', 'both', 'request', true, true],
      ['_', 'both', 'notification', true, true],
    ]);
  });

  it('reads the lenient-decoding keywords of each member', () => {
    const update = findType(load('lenient'), 'Update');
    expect(update.fields.map((f) => [f.name, f.lenience])).toEqual([
      ['kind', { defaultOnError: true, skipInvalidItems: false, defaultOnNull: false }],
      ['level', { defaultOnError: true, skipInvalidItems: false, defaultOnNull: false }],
      ['items', { defaultOnError: false, skipInvalidItems: true, defaultOnNull: false }],
      ['args', { defaultOnError: false, skipInvalidItems: false, defaultOnNull: true }],
    ]);
  });

  it("gives a closed enum's values their descriptions", () => {
    expect(findType(load('annotations'), 'Mode').values).toEqual([
      { value: 'fast', description: 'Skips checks.', since: 1, deprecated: null },
      { value: 'safe', description: 'Checks everything.', since: 1, deprecated: null },
    ]);
  });
});

describe('the checks of the new constructs', () => {
  it('refuses a discriminator on an untagged union', () => {
    expect(
      problemsOf('untagged-union', (raw) => {
        at(raw, 'types', 'Resource')['x-discriminator'] = 'uri';
      }),
    ).toEqual([
      '/types/Resource/x-discriminator: x-discriminator on the untagged union "Resource" | an untagged union has no discriminator: remove x-untagged or this member',
    ]);
  });

  it('refuses a default variant that is not a variant', () => {
    expect(
      problemsOf('tagged-variants', (raw) => {
        at(raw, 'types', 'Block')['x-default-variant'] = 'TextContent';
      }),
    ).toContain(
      '/types/Block/x-default-variant: "TextContent" is not a variant of "Block" | name one of the $refs of anyOf, or remove x-default-variant',
    );
  });

  it('refuses a tagged variant without its tag unless it is the default', () => {
    expect(
      problemsOf('tagged-variants', (raw) => {
        delete at(raw, 'types', 'Block')['x-default-variant'];
      }),
    ).toEqual([
      '/types/Block/anyOf/2: variant "PlainBlock" has no string const for "type" | give PlainBlock.properties.type a "const" value',
    ]);
  });

  it('places the lenient keywords: on members, skip-invalid-items on arrays, default-on-null where null is invalid', () => {
    expect(
      problemsOf('lenient', (raw) => {
        const update = at(raw, 'types', 'Update');
        update['x-deserialize-default-on-error'] = true;
        at(update, 'properties', 'kind')['x-deserialize-skip-invalid-items'] = true;
        at(update, 'properties', 'args')['type'] = ['array', 'null'];
      }),
    ).toEqual([
      '/types/Update/x-deserialize-default-on-error: x-deserialize-default-on-error on a type | lenient-decoding keywords go on the members that use the type (under properties), where a decoder can replace the value',
      '/types/Update/properties/kind/x-deserialize-skip-invalid-items: x-deserialize-skip-invalid-items on a member that is not an array | use it on an array member ("type": "array" with "items"), or remove it',
      '/types/Update/properties/args/x-deserialize-default-on-null: x-deserialize-default-on-null on a member whose schema admits null | null is already a valid value here: remove the keyword, or "null" from its type',
    ]);
  });

  it('refuses a description of a value the enum does not have', () => {
    expect(
      problemsOf('annotations', (raw) => {
        at(raw, 'types', 'Mode', 'x-enum-descriptions')['slow'] = 'Never.';
      }),
    ).toEqual([
      '/types/Mode/x-enum-descriptions/slow: "slow" is not a value of the enum | describe one of: "fast", "safe"',
    ]);
  });

  it('refuses a method a prefix family of the same kind already claims', () => {
    expect(
      problemsOf('extension-methods', (raw) => {
        at(raw, 'methods', 0)['method'] = '_prompt';
      }),
    ).toEqual([
      '/methods/0/method: "_prompt" starts with "_", the prefix of /methods/5 | rename the method, or narrow the family\'s prefix, so every wire name has one entry',
    ]);
  });
});
