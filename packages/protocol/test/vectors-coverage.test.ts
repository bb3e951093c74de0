// The shared vectors are complete and every file in them is claimed by the runner
// (test-vectors/README.md, "Adding a case"). Reads the IDL itself, not the generated code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readFrames } from './helpers/vector-frames.js';
import {
  IDL,
  isJsonObject,
  isWireFile,
  folderOf,
  listCases,
  listVectorFiles,
  methodByFolder,
  readJson,
  SUITES,
  typeExamples,
  VECTORS_ROOT,
} from './helpers/vectors.js';
import type { Suite } from './helpers/vectors.js';

const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The suite that claims a file, and the case name it gives it, or why none does. */
function claim(file: string): { suite: Suite; name: string } | string {
  const suite = SUITES.find((s) => file.startsWith(`${s.folder}/`));
  if (!suite) return 'no runner claims its folder';
  const rest = file.slice(suite.folder.length + 1).split('/');
  if (suite.isPerMethod) {
    if (rest.length !== 2) return `${suite.folder} holds cases in one folder per method`;
    if (!methodByFolder(rest[0] ?? '')) return `${rest[0]} is not the folder of an IDL method`;
  } else if (rest.length !== 1) {
    return `${suite.folder} has no sub-folders`;
  }
  const base = rest.at(-1) ?? '';
  const ext = [suite.expectExt, suite.wireExt].find((e) => base.endsWith(e));
  if (!ext) return `${suite.folder} holds only ${suite.wireExt} and ${suite.expectExt} files`;
  return { suite, name: base.slice(0, -ext.length) };
}

describe('the vector tree', () => {
  const files = listVectorFiles();

  it('has only the folders the runners claim at its top', () => {
    const top = readdirSync(VECTORS_ROOT).sort();
    const claimed = new Set(SUITES.map((s) => s.folder.split('/')[0]));
    expect(top.filter((entry) => entry !== 'README.md' && !claimed.has(entry))).toStrictEqual([]);
    const framing = readdirSync(join(VECTORS_ROOT, 'framing')).sort();
    expect(framing).toStrictEqual(['read', 'write']);
    for (const entry of top) {
      if (entry !== 'README.md')
        expect(statSync(join(VECTORS_ROOT, entry)).isDirectory()).toBe(true);
    }
  });

  it('has every file claimed by a runner, under a kebab-case name', () => {
    const problems = files
      .filter((file) => file !== 'README.md')
      .flatMap((file) => {
        const claimed = claim(file);
        if (typeof claimed === 'string') return [`${file}: ${claimed}`];
        return KEBAB_CASE.test(claimed.name) ? [] : [`${file}: the name is not kebab-case`];
      });
    expect(problems).toStrictEqual([]);
  });

  it('pairs every case with its expectation and every expectation with its case', () => {
    const problems: string[] = [];
    for (const file of files) {
      const claimed = claim(file);
      if (typeof claimed === 'string') continue;
      const { suite } = claimed;
      const isWire = isWireFile(suite, file);
      const stem = file.slice(0, -(isWire ? suite.wireExt : suite.expectExt).length);
      const other = stem + (isWire ? suite.expectExt : suite.wireExt);
      if (!existsSync(join(VECTORS_ROOT, other))) problems.push(`${file}: ${other} is missing`);
    }
    expect(problems).toStrictEqual([]);
  });

  it.each(SUITES.map((s) => [s.folder, s] as const))('has cases in %s', (_folder, suite) => {
    expect(listCases(suite).length).toBeGreaterThan(0);
  });
});

describe('the expectations', () => {
  for (const suite of SUITES) {
    if (!suite.expectKeys) continue;
    const allowed = suite.expectKeys;
    it(`in ${suite.folder} have a description and only the members the folder defines`, () => {
      const problems = listCases(suite).flatMap((vector) => {
        if (!existsSync(vector.expectPath)) return [];
        const expectation = readJson(vector.expectPath);
        if (!isJsonObject(expectation)) return [`${vector.id}: not an object`];
        const extra = Object.keys(expectation).filter((key) => !allowed.includes(key));
        const description = expectation['description'];
        return [
          ...(extra.length > 0 ? [`${vector.id}: unknown members ${extra.join(', ')}`] : []),
          ...(typeof description === 'string' && description.length > 0
            ? []
            : [`${vector.id}: no description`]),
        ];
      });
      expect(problems).toStrictEqual([]);
    });
  }
});

/** Params and results of every frame in the messages/ cases of a method. */
function payloadsOf(folder: string): {
  params: unknown[];
  results: unknown[];
  byCase: Map<string, unknown[]>;
} {
  const suite = SUITES.find((s) => s.folder === 'messages') as Suite;
  const params: unknown[] = [];
  const results: unknown[] = [];
  const byCase = new Map<string, unknown[]>();
  for (const vector of listCases(suite)) {
    if (!vector.id.startsWith(`messages/${folder}/`)) continue;
    const payloads: unknown[] = [];
    for (const { frame } of readFrames(vector.wirePath)) {
      if ('params' in frame) params.push(frame['params']);
      if ('result' in frame) results.push(frame['result']);
      payloads.push(frame['params'], frame['result']);
    }
    byCase.set(vector.id, payloads);
  }
  return { params, results, byCase };
}

describe('every IDL method', () => {
  for (const method of IDL.methods) {
    const folder = folderOf(method) ?? `(no folder: ${method.name} is not generated)`;
    it(`${method.method} has a valid case in messages/${folder}/ and an invalid one in invalid/${folder}/`, () => {
      for (const root of ['messages', 'invalid']) {
        const suite = SUITES.find((s) => s.folder === root) as Suite;
        const cases = listCases(suite).filter((c) => c.method?.name === method.name);
        expect(cases.length, `${root}/${folder}`).toBeGreaterThan(0);
      }
    });

    it(`${method.method} has every IDL example of its params and result types in messages/${folder}/`, () => {
      const { params, results } = payloadsOf(folder);
      const missing = [
        ...typeExamples(method.params).filter((e) => !params.some((p) => isDeepStrictEqual(p, e))),
        ...typeExamples(method.result).filter((e) => !results.some((r) => isDeepStrictEqual(r, e))),
      ];
      expect(missing).toStrictEqual([]);
    });

    it(`${method.method} names a case idl-example-… only if it holds an IDL example`, () => {
      const examples = [...typeExamples(method.params), ...typeExamples(method.result)];
      const { byCase } = payloadsOf(folder);
      const impostors = [...byCase]
        .filter(([id]) => id.split('/').at(-1)?.startsWith('idl-example-'))
        .filter(
          ([, payloads]) => !payloads.some((p) => examples.some((e) => isDeepStrictEqual(p, e))),
        )
        .map(([id]) => id);
      expect(impostors).toStrictEqual([]);
    });
  }
});
