// The Python validators' fast path (`python.fastValidators`): the schema analyses it rests on, and
// validators compiled with it against the same validators compiled without it, run for real in
// Python by python/tests/fast_path_agreement.py on the repository's own protocol (its vectors'
// frames and every value derived from them) and on the lenient fixture (repairs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmitContext } from '../src/emit/emitter.js';
import {
  OpenContentImplication,
  passesEveryString,
  RepairAnalysis,
} from '../src/emit/py-fast-path.js';
import { emitValidators } from '../src/emit/py-validators.js';
import { loadIdlFile } from '../src/idl/load.js';
import type { ProtocolTargets } from '../src/protocols/targets.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { fixtureContext, REPO, rootTargets } from './helpers/fixture-protocol.js';
import { pythonDir, skipWithout, venvPython } from './helpers/python-tools.js';
import { budgetMs } from './helpers/time-budget.js';

const OPEN = {
  minimum: -9007199254740991,
  maximum: 9007199254740991,
  items: { $ref: '#/definitions/Open' },
  additionalProperties: { $ref: '#/definitions/Open' },
};
const OPEN_REF = { $ref: '#/definitions/Open' };
const TAGGED = (tag: string) => ({ properties: { kind: { const: tag } }, required: ['kind'] });
const OBJECT_OF_OPEN = { type: 'object', additionalProperties: OPEN_REF };
const UNION = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string' } },
  if: TAGGED('a'),
  then: OBJECT_OF_OPEN,
  else: { if: TAGGED('b'), then: OBJECT_OF_OPEN, else: { properties: { kind: { enum: ['a'] } } } },
};

describe('the schema analyses of the fast path', () => {
  const definitions = {
    Open: OPEN,
    Lenient: { if: { type: 'string' }, else: { 'x-lenient-drop': true } },
    UsesLenient: { type: 'object', properties: { a: { $ref: '#/definitions/Lenient' } } },
    Loop: { type: 'array', items: { $ref: '#/definitions/Loop' } },
    Union: UNION,
  };
  const implication = new OpenContentImplication(definitions);
  const implies = (schema: unknown) => implication.implies(schema, OPEN_REF);

  it('finds the repairs a check can make, through references and cycles', () => {
    const repairs = new RepairAnalysis(definitions);
    expect(repairs.repairFree({ $ref: '#/definitions/UsesLenient' })).toBe(false);
    expect(repairs.repairFree({ $ref: '#/definitions/Loop' })).toBe(true);
    expect(repairs.repairFree({ properties: { const: { 'x-lenient-default': 1 } } })).toBe(false);
    expect(repairs.repairFree({ const: { 'x-lenient-drop': true } })).toBe(true);
  });

  it('tells which schemas every string passes', () => {
    expect(passesEveryString(OPEN)).toBe(true);
    expect(passesEveryString({ type: 'string' })).toBe(false);
    expect(passesEveryString({ minimum: 0, const: 1 })).toBe(false);
  });

  it('proves open content only where every accepted value is open content', () => {
    expect(implies({ type: 'string', minLength: 1 })).toBe(true);
    expect(implies({ const: 'tool_call' })).toBe(true);
    expect(implies({ enum: ['a', 2] })).toBe(true);
    expect(implies({ type: ['integer', 'null'], minimum: 0, maximum: 10 })).toBe(true);
    expect(implies({ allOf: [{ $ref: '#/definitions/Lenient' }] })).toBe(true);
    expect(implies({ $ref: '#/definitions/Union' })).toBe(true);
    // Arrays of arrays hold no number at any depth: a cycle is assumed to hold while it is checked.
    expect(implies({ type: 'array', items: { $ref: '#/definitions/Loop' } })).toBe(true);

    expect(implies({})).toBe(false);
    expect(implies({ type: 'number' })).toBe(false);
    expect(implies({ type: 'integer', minimum: 0, maximum: 2 ** 60 })).toBe(false);
    expect(implies({ enum: ['a', 2 ** 60] })).toBe(false);
    expect(implies({ type: 'object', properties: { a: { type: 'string' } } })).toBe(false);
    expect(implies({ if: { type: 'string' }, else: { type: 'number' } })).toBe(false);
    // The last else passes a tag no `if` takes; an `if` that tests more than the tag.
    const missed = {
      ...UNION,
      else: { ...UNION.else, else: { properties: { kind: { enum: ['c'] } } } },
    };
    expect(implies(missed)).toBe(false);
    const wider = { ...UNION, if: { ...TAGGED('a'), minProperties: 2 } };
    expect(implies(wider)).toBe(false);
  });
});

/** `context`'s Python validators, compiled with and without the fast path, in a temporary folder. */
function compileBoth(context: EmitContext): { fast: string; full: string } {
  const dir = mkdtempSync(join(tmpdir(), 'py-fast-path-'));
  const paths = { fast: join(dir, 'fast.py'), full: join(dir, 'full.py') };
  for (const fastValidators of [true, false]) {
    const python = context.target.python;
    if (!python) throw new Error('no Python target');
    const target: ProtocolTargets = { ...context.target, python: { ...python, fastValidators } };
    const file = emitValidators(context.model, context.bundle, target);
    writeFileSync(fastValidators ? paths.fast : paths.full, file.content);
  }
  return paths;
}

/** Runs python/tests/fast_path_agreement.py; returns what the fast check said, counted. */
function agreement(paths: { fast: string; full: string }, cases: [string, unknown][]) {
  const output = execFileSync(venvPython, [`${pythonDir}tests/fast_path_agreement.py`], {
    input: JSON.stringify({ ...paths, cases }),
    env: { ...process.env, PYTHONPATH: `${pythonDir}src` },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(output) as Record<string, number>;
}

/** The params of up to three request and notification frames a method in the vectors. */
function vectorParams(): [string, unknown][] {
  const root = join(REPO, 'test-vectors/messages');
  const seen = new Map<string, number>();
  const cases: [string, unknown][] = [];
  for (const folder of readdirSync(root).sort()) {
    for (const file of readdirSync(join(root, folder)).sort()) {
      if (!file.endsWith('.ndjson')) continue;
      for (const line of readFileSync(join(root, folder, file), 'utf8').split('\n')) {
        const frame = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : {};
        const method = frame['method'];
        if (typeof method !== 'string' || !('params' in frame)) continue;
        if ((seen.get(method) ?? 0) >= 3) continue;
        seen.set(method, (seen.get(method) ?? 0) + 1);
        cases.push([method, frame['params']]);
      }
    }
  }
  return cases;
}

describe('validators with a fast path', () => {
  it.skipIf(skipWithout(venvPython))(
    "agree with the full check on this repository's protocol",
    () => {
      const target = rootTargets();
      const model = loadIdlFile(join(REPO, 'protocol.idl.json'));
      const context = { model, bundle: buildSchemaBundle(model, target.schemaId), target };
      const paths = compileBoth(context);
      const fast = readFileSync(paths.fast, 'utf8');
      // The validators' names in Python, by wire method name (the module's own table).
      const names = [...fast.matchAll(/^ {4}"([^"]+)": (validate_\w+),$/gm)];
      const byMethod = new Map(names.map((m) => [m[1], m[2]]));
      const cases = vectorParams().map(([method, params]): [string, unknown] => {
        const name = byMethod.get(method);
        if (!name) throw new Error(`no validator for ${method}`);
        return [name, params];
      });
      expect(cases.length).toBeGreaterThan(10);
      const counts = agreement(paths, cases);
      expect(counts['fast']).toBeGreaterThan(20);
      expect(counts['invalid']).toBeGreaterThan(500);
    },
    budgetMs(120_000),
  );

  it.skipIf(skipWithout(venvPython))(
    'agree with the full check on values to repair (the lenient fixture)',
    () => {
      const paths = compileBoth(fixtureContext('lenient'));
      const seeds = [
        { kind: 'read', level: 2, items: [{ name: 'a' }], args: ['x'] },
        { kind: 'fly', level: 12, items: [{ name: 'a' }, { nom: 'b' }, 3], args: null },
      ];
      const counts = agreement(
        paths,
        seeds.map((seed) => ['validate_update', seed]),
      );
      expect(counts['fast']).toBeGreaterThan(5);
      expect(counts['repaired']).toBeGreaterThan(20);
    },
    budgetMs(60_000),
  );
});
