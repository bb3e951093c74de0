// `idl-gen import` on a small published schema of its own (test/fixtures/import): a JSON Schema
// 2020-12 document whose definitions carry x-method / x-side, installed as an npm package of a
// scratch workspace, imported into the IDL format.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importProtocol } from '../src/import/run-import.js';
import { listProtocols } from '../src/protocols/list.js';
import { REPO } from './helpers/fixture-protocol.js';
import { budgetMs } from './helpers/time-budget.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/import/', import.meta.url));
const cli = fileURLToPath(new URL('../bin/idl-gen.mjs', import.meta.url));
let root = '';

type Json = Record<string, unknown>;
const settingsPath = () => join(root, 'protocols/notes/protocol.import.json');

/** Rewrites the scratch settings with `edit` applied. */
function editSettings(edit: (settings: Json) => void): void {
  const settings = JSON.parse(readFileSync(settingsPath(), 'utf8')) as Json;
  edit(settings);
  writeFileSync(settingsPath(), `${JSON.stringify(settings, null, 2)}\n`);
}

/** A scratch repository: the schema installed as `notes-schema` in app/, the settings in protocols/notes. */
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idl-import-'));
  cpSync(join(REPO, '.prettierrc.json'), join(root, '.prettierrc.json'));
  writeFileSync(join(root, 'package.json'), '{ "private": true }\n');
  const pkg = join(root, 'app/node_modules/notes-schema');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(root, 'app/package.json'), '{ "name": "app", "private": true }\n');
  writeFileSync(join(pkg, 'package.json'), '{ "name": "notes-schema", "version": "1.2.3" }\n');
  cpSync(join(FIXTURES, 'notes.schema.json'), join(pkg, 'notes.schema.json'));
  mkdirSync(join(root, 'protocols/notes'), { recursive: true });
  cpSync(join(FIXTURES, 'protocol.import.json'), settingsPath());
  const targets = {
    name: 'notes',
    schemaId: 'https://example.test/notes.schema.json',
    bindings: { prefix: 'Notes', sides: { client: 'client', server: 'server' } },
    releases: { dir: 'protocols/notes/released', allowList: 'protocols/notes/allow.json' },
  };
  writeFileSync(join(root, 'protocols/notes/protocol.targets.json'), JSON.stringify(targets));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function imported(): Promise<{
  methods: Json[];
  types: Record<string, Json>;
  errors: Json[];
}> {
  const [location] = listProtocols(root);
  if (!location) throw new Error('no protocol');
  return JSON.parse((await importProtocol(root, location)).text) as never;
}

describe('importing a schema with method and side annotations', () => {
  it('refuses a created type that would take a definition’s name, naming the fix', async () => {
    await expect(imported()).rejects.toThrow(
      'the type the importer names TextBody clashes with the definition of that name: rename it in "typeNames" of protocols/notes/protocol.import.json',
    );
  });

  it('makes a method of each annotated definition: params and result by the member that refers to them', async () => {
    editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
    const { methods } = await imported();
    expect(methods).toEqual([
      {
        name: 'notesAdd',
        method: 'notes/add',
        direction: 'clientToServer',
        kind: 'request',
        params: 'AddNoteRequest',
        result: 'AddNoteResponse',
        description: 'Adds a note.',
      },
      {
        name: 'cancelAdding',
        method: 'notes/cancel',
        direction: 'clientToServer',
        kind: 'notification',
        params: 'CancelNotification',
        description: 'Stops adding.',
      },
      {
        name: 'userAsk',
        method: 'user/ask',
        direction: 'serverToClient',
        kind: 'request',
        params: 'AskRequest',
        result: 'AskResponse',
        description: 'Asks the user.',
        optional: true,
      },
    ]);
  });

  it('names every object, keeps $ref in allOf and nullable refs, and leaves out what no method reaches', async () => {
    editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
    const { types } = await imported();
    expect(Object.keys(types)).toEqual([
      'AddNoteRequest',
      'NoteId',
      'Body',
      'TextNoteBody',
      'TextBody',
      'ChecklistBody',
      'UnknownBody',
      'Color',
      'AddNoteRequestPlace',
      'AddNoteResponse',
      'Mood',
      'CancelNotification',
      'AskRequest',
      'AskRequestChoice',
      'NoteScope',
      'GlobalScope',
      'AskResponse',
    ]);
    const properties = types['AddNoteRequest']?.['properties'] as Record<string, Json>;
    expect(properties['noteId']).toEqual({
      description: 'Its id.',
      allOf: [{ $ref: '#/definitions/NoteId' }],
    });
    expect(properties['color']).toEqual({
      description: 'Its color, or null.',
      anyOf: [{ $ref: '#/definitions/Color' }, { type: 'null' }],
      'x-deserialize-default-on-error': true,
    });
    expect(properties['place']).toEqual({
      allOf: [{ $ref: '#/definitions/AddNoteRequestPlace' }],
      description: 'Where it is pinned.',
    });
    expect(properties['_meta']).toEqual({
      description: 'Not to be interpreted.',
      type: ['object', 'null'],
      additionalProperties: true,
    });
  });

  it('turns a oneOf with a discriminator into a tagged union of named variants, the catch-all its open end', async () => {
    editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
    const { types } = await imported();
    expect(types['Body']).toMatchObject({
      anyOf: [
        { $ref: '#/definitions/TextNoteBody' },
        { $ref: '#/definitions/ChecklistBody' },
        { $ref: '#/definitions/UnknownBody' },
      ],
      'x-discriminator': 'kind',
      'x-open': true,
    });
    expect(types['TextNoteBody']).toEqual({
      type: 'object',
      properties: {
        kind: {
          type: 'string',
          const: 'text',
          description: 'Always `text`: selects this variant.',
        },
      },
      required: ['kind'],
      allOf: [{ $ref: '#/definitions/TextBody' }],
      description: 'Plain text.',
      examples: [{ text: 'buy milk', kind: 'text' }],
    });
    expect(types['UnknownBody']).toEqual({
      type: 'object',
      properties: { kind: { type: 'string', description: 'Its kind.' } },
      required: ['kind'],
      description: 'A kind this version does not know.',
      'x-unknown-variant': true,
      examples: [{ kind: '_custom' }],
    });
  });

  it('turns const options into enums, bare types into a type array, and members beside an untagged union into an extension', async () => {
    editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
    const { types } = await imported();
    expect(types['Color']).toMatchObject({
      type: 'string',
      enum: ['red', 'blue'],
      'x-enum-descriptions': { red: 'Warm.', blue: 'Cold.' },
    });
    expect(types['Mood']).toMatchObject({ type: 'string', 'x-known-values': { glad: 'Fine.' } });
    const answer = (types['AskResponse']?.['properties'] as Record<string, Json>)['answer'];
    expect(answer).toEqual({ type: ['string', 'integer'], minimum: 0, description: 'What.' });
    expect(types['AskRequest']).toMatchObject({
      type: 'object',
      properties: { question: { description: 'What.', type: 'string' } },
      allOf: [{ $ref: '#/definitions/AskRequestChoice' }],
    });
    expect(types['AskRequestChoice']).toMatchObject({
      anyOf: [{ $ref: '#/definitions/NoteScope' }, { $ref: '#/definitions/GlobalScope' }],
      'x-untagged': true,
      description: 'One of: Note, Global.',
    });
  });

  it('lists the error codes of the definition the settings name', async () => {
    editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
    expect((await imported()).errors).toEqual([
      {
        name: 'invalidParams',
        code: -32602,
        message: 'Invalid params',
        description: 'Bad params.',
      },
      {
        name: 'noteNotFound',
        code: -32010,
        message: 'Note not found',
        description: 'No such note.',
      },
    ]);
  });

  it('says what to run when the installed package is not the pinned version', async () => {
    editSettings((s) => ((s['source'] as Json)['version'] = '1.2.4'));
    await expect(imported()).rejects.toThrow(
      'protocols/notes/protocol.import.json pins notes-schema@1.2.4, but app has 1.2.3 installed: pin "notes-schema": "1.2.4" in app/package.json devDependencies and run `pnpm install`',
    );
  });

  it(
    'writes the IDL, gives the same bytes again, and --check finds a hand edit',
    () => {
      editSettings((s) => ((s['typeNames'] as Json)['TextBody'] = 'TextNoteBody'));
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [cli, 'import', '--root', root, ...args], { encoding: 'utf8' });
      const first = run();
      expect(first.stdout).toContain(
        'import: protocols/notes/protocol.idl.json from notes-schema@1.2.3 notes.schema.json: 3 methods, 17 types',
      );
      const idl = join(root, 'protocols/notes/protocol.idl.json');
      const text = readFileSync(idl, 'utf8');
      expect(run().status).toBe(0);
      expect(readFileSync(idl, 'utf8')).toBe(text);
      expect(run('--check').status).toBe(0);
      writeFileSync(idl, text.replace('"Adds a note."', '"Adds a sticky note."'));
      const check = run('--check');
      expect(check.status).toBe(1);
      expect(check.stderr).toContain('-      "description": "Adds a sticky note."');
      expect(check.stderr).toContain('run `pnpm idl:import`, then `pnpm generate`');
    },
    budgetMs(60_000),
  );
});
