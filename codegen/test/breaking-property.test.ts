// Property: for random edits of today's IDL, whenever the semantic cross-check finds a message that
// crosses from one version to the other, a structural rule reported a breaking change there. (A
// crossing nothing explains comes back as a `rules-bug` finding, so the property is: none of those.)
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawIdl } from '../src/idl/build-model.js';
import { TYPE_SECTIONS } from '../src/idl/build-model.js';
import { compareIdl } from '../src/breaking/compare-idl.js';
import { idlDocumentFromText } from '../src/breaking/document.js';
import { readVectorSamples } from '../src/breaking/semantic/vectors.js';
import { budgetMs } from './helpers/time-budget.js';

const repo = new URL('../..', import.meta.url).pathname;
const text = readFileSync(`${repo}protocol.idl.json`, 'utf8');
const today = idlDocumentFromText(text, 'protocol.idl.json');
const vectors = readVectorSamples(`${repo}test-vectors/messages`);

type Schema = Record<string, unknown>;

/** Every named type schema, in a fixed order, so an index picks the same one every run. */
function schemas(raw: RawIdl): Schema[] {
  return TYPE_SECTIONS.flatMap((s) =>
    Object.keys(raw[s])
      .sort()
      .map((name) => raw[s][name] as Schema),
  );
}

const objects = (raw: RawIdl) => schemas(raw).filter((s) => typeof s['properties'] === 'object');
const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items[index % Math.max(1, items.length)];

const REPLACEMENTS: readonly Schema[] = [
  { type: 'string' },
  { type: 'string', minLength: 2 },
  { type: 'integer', minimum: 0 },
  { type: 'number' },
  { type: 'boolean' },
  { type: ['string', 'null'] },
  { type: 'array', items: { type: 'string' } },
  { type: 'string', enum: ['a', 'b'] },
  { $ref: '#/definitions/Count' },
];

const CONSTRAINTS: readonly [string, number | undefined][] = [
  ['minLength', 1],
  ['minLength', 0],
  ['maxLength', 3],
  ['minimum', 1],
  ['minimum', undefined],
  ['maximum', 1000],
  ['minItems', 1],
  ['minItems', undefined],
];

type EditFn = (raw: RawIdl, a: number, b: number) => void;

function member(raw: RawIdl, a: number, b: number): { object: Schema; name: string } | null {
  const object = pick(objects(raw), a);
  const name = object ? pick(Object.keys(object['properties'] as Schema), b) : undefined;
  return object && name ? { object, name } : null;
}

const EDITS: Record<string, EditFn> = {
  toggleRequired: (raw, a, b) => {
    const m = member(raw, a, b);
    if (!m) return;
    const required = (m.object['required'] ?? []) as string[];
    m.object['required'] = required.includes(m.name)
      ? required.filter((r) => r !== m.name)
      : [...required, m.name];
  },
  removeMember: (raw, a, b) => {
    const m = member(raw, a, b);
    if (!m) return;
    delete (m.object['properties'] as Schema)[m.name];
    m.object['required'] = ((m.object['required'] ?? []) as string[]).filter((r) => r !== m.name);
  },
  addMember: (raw, a, b) => {
    const object = pick(objects(raw), a);
    if (!object) return;
    (object['properties'] as Schema)['extra'] = { ...pick(REPLACEMENTS, b), description: 'New.' };
    if (b % 2 === 0) object['required'] = [...((object['required'] ?? []) as string[]), 'extra'];
  },
  replaceMember: (raw, a, b) => {
    const m = member(raw, a, b);
    if (m)
      (m.object['properties'] as Schema)[m.name] = {
        ...pick(REPLACEMENTS, a + b),
        description: 'Replaced.',
      };
  },
  constrainMember: (raw, a, b) => {
    const m = member(raw, a, b);
    const [keyword, value] = pick(CONSTRAINTS, a * 7 + b) ?? ['minLength', 1];
    const prop = m
      ? ((m.object['properties'] as Record<string, Schema>)[m.name] as Schema)
      : undefined;
    if (!prop || typeof prop !== 'object') return;
    if (value === undefined) delete prop[keyword];
    else prop[keyword] = value;
  },
  editEnum: (raw, a, b) => {
    const enums = schemas(raw).filter((s) => Array.isArray(s['enum']));
    const target = pick(enums, a);
    if (!target) return;
    const values = target['enum'] as string[];
    target['enum'] =
      b % 2 === 0 || values.length < 2 ? [...new Set([...values, `added-${b}`])] : values.slice(1);
  },
  toggleOpenEnum: (raw, a) => {
    const target = pick(
      schemas(raw).filter((s) => Array.isArray(s['enum']) || s['x-known-values']),
      a,
    );
    if (!target) return;
    if (Array.isArray(target['enum'])) {
      target['x-known-values'] = Object.fromEntries(
        (target['enum'] as string[]).map((v) => [v, 'Known.']),
      );
      delete target['enum'];
    } else {
      target['enum'] = Object.keys(target['x-known-values'] as Schema);
      delete target['x-known-values'];
    }
  },
  changeConst: (raw, a) => {
    const consts = schemas(raw)
      .flatMap((s) => [s, ...Object.values((s['properties'] ?? {}) as Record<string, Schema>)])
      .filter((s) => typeof s === 'object' && 'const' in s);
    const target = pick(consts, a);
    if (target) target['const'] = `${String(target['const'])}-changed`;
  },
  dropVariant: (raw, a, b) => {
    const union = pick(
      schemas(raw).filter((s) => Array.isArray(s['anyOf'])),
      a,
    );
    const options = union ? (union['anyOf'] as unknown[]) : [];
    if (options.length > 2) options.splice(b % (options.length - 1), 1);
  },
  toggleClosed: (raw, a) => {
    const object = pick(objects(raw), a);
    if (object) object['additionalProperties'] = object['additionalProperties'] === false;
  },
};

const editArbitrary = fc.record({
  kind: fc.constantFrom(...Object.keys(EDITS)),
  a: fc.nat(200),
  b: fc.nat(200),
});

describe('random edits of protocol.idl.json', () => {
  it(
    'never let a message cross without a structural finding',
    () => {
      let crossedRuns = 0;
      fc.assert(
        fc.property(fc.array(editArbitrary, { minLength: 1, maxLength: 3 }), (edits) => {
          const raw = JSON.parse(text) as RawIdl;
          for (const e of edits) EDITS[e.kind]?.(raw, e.a, e.b);
          const next = idlDocumentFromText(JSON.stringify(raw, null, 2), 'edited.idl.json', {
            check: false,
          });
          const comparison = compareIdl(today, next, {
            vectors,
            allowList: { file: 'none', entries: [] },
            samples: 8,
            seed: 3,
          });
          if (comparison.semantic.crossed > 0) crossedRuns++;
          const bugs = comparison.findings.filter((f) => f.rule === 'rules-bug');
          expect(
            bugs.map((f) => f.message),
            JSON.stringify(edits),
          ).toEqual([]);
          if (comparison.semantic.crossed > 0)
            expect(comparison.findings.some((f) => f.severity === 'breaking')).toBe(true);
        }),
        {
          numRuns: Number(process.env['BREAKING_PROPERTY_RUNS'] ?? 60),
          seed: Number(process.env['BREAKING_PROPERTY_SEED'] ?? 20260112),
        },
      );
      // The property is not vacuous: many edits do make messages cross.
      expect(crossedRuns).toBeGreaterThan(15);
    },
    budgetMs(120_000),
  );
});
