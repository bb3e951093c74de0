// The README's TypeScript type-checked as a user does it: `npx tsc` with the README's
// `tsconfig.json`, in the README's project (the newest TypeScript on the registry, which its
// `npm install --save-dev typescript` installs) and in the same project with the TypeScript this
// repository pins. Beside the examples: typed snippets whose `@ts-expect-error` lines must fail
// (consumer/fixtures/), the strictest settings, and the packages' own declarations, which must
// name the Node types they use, so that a user's error can only be about the user's own code.
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { declarationErrors } from './helpers/declarations.js';
import {
  PACKAGE_NAMES,
  REPOSITORY,
  STRICT_TSCONFIG,
  createFolder,
  npmInstall,
  pinnedVersion,
  readmeInstallSteps,
  readmeTsconfig,
  run,
  setUpReadmeProject,
  tarballFile,
  tarballInstallOf,
  tarballsOf,
} from './helpers/scratch-project.js';

const FIXTURES = join(REPOSITORY, 'consumer', 'fixtures');
const full = inject('readmeProject');
let pinned: string; // the README's project, then `npm install --save-dev typescript@<pinned>`
let typescriptPin: string;

beforeAll(async () => {
  typescriptPin = await pinnedVersion('typescript');
  pinned = await createFolder('pinned-typescript');
  for (const file of await readdir(full))
    if (file.endsWith('.tgz') || file.endsWith('.ts') || file === 'tsconfig.json')
      await copyFile(join(full, file), join(pinned, file)); // what packing and saving left
  await setUpReadmeProject(await readmeInstallSteps(pinned));
  await npmInstall(pinned, ['--save-dev', `typescript@${typescriptPin}`]);
  for (const project of [full, pinned])
    for (const fixture of await readdir(FIXTURES))
      await copyFile(join(FIXTURES, fixture), join(project, fixture));
});

afterAll(async () => {
  await rm(pinned, { recursive: true, force: true });
});

/** The projects, by the TypeScript they type-check with. */
const PROJECTS = [
  ['the newest TypeScript on the registry', () => full],
  ['the pinned TypeScript', () => pinned],
] as const;

describe.each(PROJECTS)('with %s', (_, project) => {
  test('it is the TypeScript meant: the registry’s latest, or the repository’s pin', async () => {
    const { stdout } = await run('npx', ['tsc', '--version'], project());
    const expected =
      project() === full
        ? (await run('npm', ['view', 'typescript', 'version'], project())).stdout.trim()
        : typescriptPin;
    expect(stdout.trim()).toBe(`Version ${expected}`);
  });

  test("`npx tsc` with the README's tsconfig.json passes the examples and the typed snippets", async () => {
    // The folder's .ts files: every example, and the fixtures' expect-error cases.
    const files = (await readdir(project())).filter((file) => file.endsWith('.ts'));
    expect(files.filter((file) => file.startsWith('example-')).length).toBeGreaterThan(3);
    expect(await readFile(join(project(), 'tsconfig.json'), 'utf8')).toBe(await readmeTsconfig());
    await run('npx', ['tsc'], project());
  });

  test('the same files pass the strictest settings the repository uses', async () => {
    await writeFile(join(project(), 'tsconfig.strict.json'), JSON.stringify(STRICT_TSCONFIG));
    await run('npx', ['tsc', '-p', 'tsconfig.strict.json'], project());
  });

  test('every entry point type-checks under a tsconfig.json that names no types', async () => {
    // TypeScript 7 loads no @types package by default; the declarations must ask for Node's.
    const folder = join(project(), 'no-types');
    await mkdir(folder, { recursive: true });
    await copyFile(join(FIXTURES, 'entry-points.ts'), join(folder, 'entry-points.ts'));
    const tsconfig = {
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, types: [] },
    };
    await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run('npx', ['tsc', '-p', 'no-types'], project());
  });
});

describe("the packages' declarations", () => {
  test('each one that uses Node types names them, and its package declares @types/node', async () => {
    const tarballs = tarballsOf(tarballInstallOf(await readmeInstallSteps(full)));
    // Compiled where no @types/node is installed: a file that names Node's types says so (TS2688,
    // "Cannot find type definition file for 'node'") beside the errors of its Node types.
    const tsc = join(pinned, 'node_modules', '.bin', 'tsc');
    const errors = await declarationErrors(tsc, Object.values(tarballs));
    const unnamed = [...errors].filter(([, codes]) => !codes.includes('TS2688'));
    expect(unnamed.map(([file, codes]) => `${file}: ${codes.join(' ')}`)).toEqual([]);
    const users = new Set([...errors.keys()].map((file) => file.split('/')[1]));
    expect(users.size).toBeGreaterThan(0); // some declarations use Node types: it checked them
    for (const name of PACKAGE_NAMES.filter((n) => users.has(n))) {
      const manifest = JSON.parse(await tarballFile(tarballs[name], 'package.json')) as {
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      expect(manifest.peerDependencies?.['@types/node']).toBe('>=20');
      expect(manifest.peerDependenciesMeta?.['@types/node']).toEqual({ optional: true });
    }
  });
});
