// The Python typed layer (py-models, py-bindings, py-converters) on one small fixture per construct,
// run for real: the generated package is written to a temporary folder, imported, and every case
// is decoded by the straight-line converters and by the table-walking reference, compared, and
// encoded back. mypy --strict and ruff check the generated code.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyBindingsEmitter } from '../src/emit/py-bindings.js';
import { pyConvertersEmitter } from '../src/emit/py-converters.js';
import { pyModelsEmitter } from '../src/emit/py-models.js';
import type { ProtocolTargets } from '../src/protocols/targets.js';
import { fixtureContext, rootTargets } from './helpers/fixture-protocol.js';
import { pythonDir, skipWithout, venvPython } from './helpers/python-tools.js';
import { budgetMs } from './helpers/time-budget.js';

const root = mkdtempSync(join(tmpdir(), 'dsh-py-typed-'));
afterAll(() =>
  process.env['KEEP_PY_TYPED'] ? undefined : rmSync(root, { recursive: true, force: true }),
);

/** The fixture's models, tables and converters as the package `fx_<name>`, with its table codec. */
async function writePackage(fixture: string): Promise<string> {
  const pkg = `fx_${fixture.replace(/-/g, '_')}`;
  const base = rootTargets();
  const python = base.python;
  if (!python) throw new Error('the root protocol has Python targets');
  const target: ProtocolTargets = {
    ...base,
    python: {
      ...python,
      genDir: `${pkg}/_gen`,
      genPackage: `${pkg}._gen`,
      runtime: { ...python.runtime, tableCodec: `${pkg}.table_codec` },
    },
  };
  const context = { ...fixtureContext(fixture), target };
  const outputs = [
    ...(await pyModelsEmitter.emit(context)),
    ...(await pyBindingsEmitter.emit(context)),
    ...(await pyConvertersEmitter.emit(context)),
  ];
  mkdirSync(join(root, pkg, '_gen'), { recursive: true });
  for (const output of outputs) writeFileSync(join(root, output.path), output.content);
  writeFileSync(join(root, pkg, '__init__.py'), '');
  writeFileSync(
    join(root, pkg, 'table_codec.py'),
    [
      `from ${pkg}._gen.wire_names import CLASSES, TYPES, UNIONS`,
      'from dsh_sdk.wire_codec import CodecError, TableCodec',
      '',
      '__all__ = ["CODEC", "CodecError", "decode", "decode_class"]',
      '',
      'CODEC = TableCodec(CLASSES, UNIONS, TYPES)',
      'decode = CODEC.decode',
      'decode_class = CODEC.decode_class',
      '',
    ].join('\n'),
  );
  return pkg;
}

const SCRIPT = `
import dataclasses, importlib, json, sys
from dsh_sdk.wire_object import WireObject
pkg, cases = sys.argv[1], json.loads(sys.argv[2])
converters = importlib.import_module(pkg + "._gen.converters").DECODERS
codec = importlib.import_module(pkg + ".table_codec").CODEC

def shape(value):
    if isinstance(value, WireObject):
        fields = {f.name: shape(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"class": type(value).__name__, **{k: v for k, v in fields.items() if v not in (None, {})}}
    if isinstance(value, list):
        return [shape(item) for item in value]
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    return value

out = []
for case in cases:
    ours = converters[case["type"]](case["value"])
    reference = codec.decode(case["type"], case["value"])
    out.append({"same": shape(ours) == shape(reference) and ours == reference,
                "decoded": shape(ours), "encoded": codec.encode_value(ours)})
print(json.dumps(out))
`;

interface Case {
  readonly type: string;
  readonly value: unknown;
}

function run(pkg: string, cases: readonly Case[]): { decoded: unknown; encoded: unknown }[] {
  const output = execFileSync(venvPython, ['-c', SCRIPT, pkg, JSON.stringify(cases)], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: `${root}:${join(pythonDir, 'src')}` },
  });
  const results = JSON.parse(output) as { same: boolean; decoded: unknown; encoded: unknown }[];
  results.forEach((result, i) => {
    // The converters agree with the reference, and the round trip loses nothing.
    expect(result.same, JSON.stringify(cases[i])).toBe(true);
    expect(result.encoded).toEqual(cases[i]?.value);
  });
  return results;
}

const skip = skipWithout(venvPython);
const timeout = budgetMs(60_000);

describe.skipIf(skip)('the Python typed layer on one fixture per construct', () => {
  it(
    'nullable members: a null is kept apart from absence, a $ref beside null decodes',
    async () => {
      const pkg = await writePackage('nullable');
      const [nulls, person, absent] = run(pkg, [
        { type: 'Note', value: { title: null, author: null, tags: null } },
        { type: 'Note', value: { title: 't', author: { name: 'Ann' }, tags: ['a'] } },
        { type: 'Note', value: {} },
      ]);
      expect(nulls?.decoded).toEqual({
        class: 'Note',
        extra: { title: null, author: null, tags: null },
      });
      expect(person?.decoded).toEqual({
        class: 'Note',
        title: 't',
        author: { class: 'Person', name: 'Ann' },
        tags: ['a'],
      });
      expect(absent?.decoded).toEqual({ class: 'Note' });
    },
    timeout,
  );

  it(
    'an object extending an untagged union gets every variant member, optional',
    async () => {
      const pkg = await writePackage('union-base');
      const [session, request] = run(pkg, [
        { type: 'Ask', value: { sessionId: 's', text: 'why' } },
        { type: 'Ask', value: { requestId: 7, text: 'why', x: 1 } },
      ]);
      expect(session?.decoded).toEqual({ class: 'Ask', session_id: 's', text: 'why' });
      expect(request?.decoded).toEqual({
        class: 'Ask',
        request_id: 7,
        text: 'why',
        extra: { x: 1 },
      });
    },
    timeout,
  );

  it(
    'untagged unions: objects by their required members, arrays by their first item',
    async () => {
      const resource = await writePackage('untagged-union');
      const [text] = run(resource, [{ type: 'Resource', value: { uri: 'u', text: 'hi' } }]);
      expect(text?.decoded).toMatchObject({ class: 'TextResource' });
      const menu = await writePackage('untagged-array-union');
      const [empty, plain, grouped] = run(menu, [
        { type: 'Menu', value: { options: [] } },
        { type: 'Menu', value: { options: [{ value: 'a' }] } },
        { type: 'Menu', value: { options: [{ group: 'g', options: [{ value: 'b' }] }] } },
      ]);
      expect(empty?.decoded).toEqual({ class: 'Menu', options: [] });
      expect(plain?.decoded).toEqual({
        class: 'Menu',
        options: [{ class: 'Option', value: 'a' }],
      });
      expect(grouped?.decoded).toEqual({
        class: 'Menu',
        options: [{ class: 'Group', group: 'g', options: [{ class: 'Option', value: 'b' }] }],
      });
    },
    timeout,
  );

  it(
    'member defaults: an absent member stays absent (None) and is not written back',
    async () => {
      const pkg = await writePackage('member-defaults');
      const [empty, set] = run(pkg, [
        { type: 'Settings', value: {} },
        { type: 'Settings', value: { verbose: false, limits: { lines: 3 }, names: [] } },
      ]);
      expect(empty?.decoded).toEqual({ class: 'Settings' });
      expect(set?.decoded).toEqual({
        class: 'Settings',
        verbose: false,
        limits: { class: 'Limits', lines: 3 },
        names: [],
      });
    },
    timeout,
  );

  it(
    'maps of objects, _meta members and tagged unions with a default variant',
    async () => {
      const form = await writePackage('object-map');
      const [fields] = run(form, [{ type: 'Form', value: { fields: { age: { label: 'Age' } } } }]);
      expect(fields?.decoded).toEqual({
        class: 'Form',
        fields: { age: { class: 'Field', label: 'Age' } },
      });
      const meta = await writePackage('meta-member');
      const [withMeta] = run(meta, [{ type: 'Note', value: { text: 'a', _meta: { k: 1 } } }]);
      expect(withMeta?.decoded).toMatchObject({ field_meta: { k: 1 } });
      const tagged = await writePackage('tagged-variants');
      const [plain] = run(tagged, [{ type: 'Block', value: { body: 'no tag' } }]);
      expect(plain?.decoded).toMatchObject({ class: 'PlainBlock' });
    },
    timeout,
  );

  it(
    'the generated packages pass mypy --strict and ruff',
    () => {
      const packages = execFileSync('ls', [root], { encoding: 'utf8' }).trim().split('\n');
      expect(packages.length).toBeGreaterThanOrEqual(6);
      const env = { ...process.env, MYPYPATH: join(pythonDir, 'src') };
      const mypy = join(pythonDir, '.venv/bin/mypy');
      execFileSync(mypy, ['--strict', '--no-incremental', ...packages], { cwd: root, env });
      const ruff = join(pythonDir, '.venv/bin/ruff');
      // I001: the fixture packages (fx_*) are not the first-party package the imports are sorted for.
      const lint = ['check', '--config', 'line-length = 100', '--ignore', 'I001', ...packages];
      execFileSync(ruff, lint, { cwd: root });
      // The files these constructs shape (constants.py and methods.py of a one-method fixture
      // print one-item literals that ruff would join, which full protocols never have).
      const shaped = packages.flatMap((p) =>
        ['models', 'wire_names', 'converters'].map((m) => `${p}/_gen/${m}.py`),
      );
      execFileSync(ruff, ['format', '--check', '--config', 'line-length = 100', ...shaped], {
        cwd: root,
      });
    },
    budgetMs(120_000),
  );
});
