// The lenient-decoding repairs and the annotations in the Python validators: the lenient fixture's
// validators compiled to Python and run on the same values as its TypeScript (ajv) validators,
// which must agree on the verdict, the violations in order, and the value the repairs leave.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { emitValidators } from '../src/emit/py-validators.js';
import { fixtureContext, fixtureValidators, renderFixture } from './helpers/fixture-protocol.js';
import { pythonDir, skipWithout, venvPython } from './helpers/python-tools.js';
import { budgetMs } from './helpers/time-budget.js';

const VALUES: unknown[] = [
  { kind: 'read', level: 2, items: [{ name: 'a' }], args: ['x'] },
  { kind: 'fly', level: 12, items: [{ name: 'a' }, { nom: 'b' }, 3], args: null },
  { kind: null, items: [], args: [1] },
  { items: 'many' },
  { level: 'loud', items: [{}, {}] },
  'not an object',
];

/** Each value through the Python `validators.py` of the fixture: [violations, value after]. */
function runPython(source: string, method: string): [string[], unknown][] {
  const script = `${source}
import json, sys
out = []
for value in json.load(sys.stdin):
    found = PARAMS_VALIDATORS[${JSON.stringify(method)}](value)
    out.append([[f"{v.pointer} {v.message}" for v in found], value])
print(json.dumps(out))
`;
  const output = execFileSync(venvPython, ['-c', script], {
    input: JSON.stringify(VALUES),
    env: { ...process.env, PYTHONPATH: `${pythonDir}src` },
    encoding: 'utf8',
  });
  return JSON.parse(output) as [string[], unknown][];
}

describe('lenient repairs in the Python validators', () => {
  it.skipIf(skipWithout(venvPython))(
    'agree with the TypeScript validators on verdicts, violations and repaired values',
    async () => {
      const context = fixtureContext('lenient');
      const file = emitValidators(context.model, context.bundle, context.target);
      const python = runPython(file.content, 'update');
      const validate = (await fixtureValidators(await renderFixture('lenient')))['validateUpdate'];
      if (!validate) throw new Error('no validateUpdate');
      const typescript = VALUES.map((value): [string[], unknown] => {
        const copy = structuredClone(value);
        validate(copy);
        const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
        return [errors.map((e) => `${e.instancePath} ${e.message ?? ''}`), copy];
      });
      expect(python).toEqual(typescript);
      // Not vacuous: repairs happened and violations remain where no keyword covers them.
      expect(python[1]?.[1]).toEqual({ level: 5, items: [{ name: 'a' }], args: [] });
      expect(python[3]?.[0]).toEqual(['/items must be array']);
    },
    budgetMs(60_000),
  );
});
