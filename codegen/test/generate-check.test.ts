// The drift check, run as CI runs it (the CLI), on a temporary copy of the repository's generated state.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProtocols } from '../src/protocols/list.js';
import { loadProtocols, readTargets } from '../src/protocols/load-protocol.js';
import { generatedLocations } from '../src/protocols/targets.js';
import { budgetMs } from './helpers/time-budget.js';

const repo = new URL('../..', import.meta.url).pathname;
const cli = new URL('../bin/idl-gen.mjs', import.meta.url).pathname;
let copy = '';

function runGenerator(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'generate', '--root', copy, ...args], {
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** Every input and output of every protocol: its IDL, targets, releases and generated files. */
function protocolFiles(): string[] {
  return listProtocols(repo).flatMap((location) => {
    const targets = readTargets(repo, location);
    const { folders, files } = generatedLocations(targets);
    const inputs = [location.idlPath, location.targetsPath, targets.releases.dir];
    return [...inputs, ...folders, ...files];
  });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'idl-drift-'));
  for (const path of ['package.json', '.prettierrc.json', ...protocolFiles()]) {
    cpSync(join(repo, path), join(copy, path), { recursive: true });
  }
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('generate --check on a copy of the repository', () => {
  it(
    'passes when the committed output matches the IDL',
    () => {
      const { code, out } = runGenerator('--check');
      expect(code).toBe(0);
      expect(out).toMatch(/generated files match protocol\.idl\.json/);
    },
    budgetMs(60_000),
  );

  it(
    'fails with a diff and the fix when a generated file was edited by hand',
    () => {
      const target = join(copy, 'packages/protocol/src/gen/methods.gen.ts');
      const original = readFileSync(target, 'utf8');
      writeFileSync(target, original.replace("'session/prompt'", "'session/prompt2'"));
      const { code, err } = runGenerator('--check');
      writeFileSync(target, original);
      expect(code).toBe(1);
      expect(err).toContain('changed packages/protocol/src/gen/methods.gen.ts');
      expect(err).toContain("-  sessionPrompt: 'session/prompt2',");
      expect(err).toContain("+  sessionPrompt: 'session/prompt',");
      expect(err).toContain('Run `pnpm generate` and commit the result.');
    },
    budgetMs(60_000),
  );

  it(
    'fails when the IDL changed without regenerating, then passes after generating',
    () => {
      const idlPath = join(copy, 'protocol.idl.json');
      const idl = readFileSync(idlPath, 'utf8');
      writeFileSync(
        idlPath,
        idl.replace(
          '"Working directory recorded for SDK-created sessions."',
          '"The working directory."',
        ),
      );
      const check = runGenerator('--check');
      expect(check.code).toBe(1);
      expect(check.err).toContain('+   * The working directory.');
      expect(check.err).toMatch(/changed +docs\/protocol\.md/);
      const generate = runGenerator();
      expect(generate.code).toBe(0);
      expect(runGenerator('--check').code).toBe(0);
      writeFileSync(idlPath, idl);
      expect(runGenerator().code).toBe(0);
    },
    budgetMs(120_000),
  );

  it(
    'reports a stray file in a generated folder as stale and deletes it on generate',
    () => {
      writeFileSync(join(copy, 'packages/protocol/src/gen/old.gen.ts'), 'export {};\n');
      const check = runGenerator('--check');
      expect(check.code).toBe(1);
      expect(check.err).toMatch(/stale +packages\/protocol\/src\/gen\/old\.gen\.ts/);
      expect(runGenerator().out).toContain('deleted packages/protocol/src/gen/old.gen.ts');
      expect(runGenerator('--check').code).toBe(0);
    },
    budgetMs(120_000),
  );

  it(
    'refuses a broken IDL, names the problem and writes nothing',
    () => {
      const idlPath = join(copy, 'protocol.idl.json');
      const idl = readFileSync(idlPath, 'utf8');
      writeFileSync(
        idlPath,
        idl.replace('"params": "SessionPromptParams"', '"params": "SessionPromptParam"'),
      );
      const before = readFileSync(join(copy, 'packages/protocol/src/gen/methods.gen.ts'), 'utf8');
      const result = runGenerator();
      writeFileSync(idlPath, idl);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(
        /protocol\.idl\.json:\d+:\d+ \/methods\/1\/params: unknown type "SessionPromptParam"/,
      );
      expect(result.err).toContain('nothing was written');
      expect(readFileSync(join(copy, 'packages/protocol/src/gen/methods.gen.ts'), 'utf8')).toBe(
        before,
      );
    },
    budgetMs(60_000),
  );
});

describe('determinism', () => {
  it(
    'renders byte-identical output twice in a row',
    async () => {
      // Each render computes every output: from the output cache, both would be the same entries.
      const { disableOutputCache } = await import('../src/inner-loop/output-cache.js');
      disableOutputCache();
      const { renderProtocol } = await import('../src/render.js');
      const render = async () =>
        (
          await Promise.all(loadProtocols(repo, undefined).map((p) => renderProtocol(p, repo)))
        ).flat();
      const first = await render();
      const second = await render();
      expect(second).toEqual(first);
      expect(first.map((f) => f.content).join('')).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    },
    budgetMs(120_000),
  );
});
