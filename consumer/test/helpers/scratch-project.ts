// Packing the workspace packages and installing them into scratch projects outside the
// repository, with the commands of the README's install block.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
export const PACKAGE_NAMES = ['protocol', 'client', 'runtime', 'acp', 'cli'] as const;
export type PackageName = (typeof PACKAGE_NAMES)[number];

/** What a finished command printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * This process's environment without what pnpm adds for the workspace (`NODE_PATH` would let a
 * scratch project resolve the workspace's packages; `npm_*` would point npm at the workspace).
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const entries = Object.entries(process.env).filter(
    ([name]) => name !== 'NODE_PATH' && !name.startsWith('npm_') && !name.startsWith('PNPM_'),
  );
  return Object.fromEntries(entries);
}

/** Runs a command to completion; rejects with its output when it exits non-zero. */
export async function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = consumerEnv(),
): Promise<CommandOutput> {
  try {
    return await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as Partial<CommandOutput>;
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`, {
      cause: error,
    });
  }
}

/** One command of the README's install block, where it runs (`cd` lines move the folder). */
export interface InstallStep {
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string;
}

/** The consumer's project folder in the README's install block; the tests put a scratch one. */
const README_PROJECT = '~/my-app';

/**
 * The README's ```sh install-from-artifacts block as commands, comments dropped, its project
 * folder replaced by `project`: the commands the tests run, exactly as a consumer types them.
 */
export async function readmeInstallSteps(project: string): Promise<InstallStep[]> {
  const readme = await readFile(join(REPOSITORY, 'README.md'), 'utf8');
  const block = /^```sh install-from-artifacts\n([\s\S]*?)^```/m.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no ```sh install-from-artifacts block');
  const steps: InstallStep[] = [];
  let cwd = REPOSITORY; // the block starts in the checkout
  for (const line of block.split('\n')) {
    const words = line.replace(/#.*/, '').trim().split(/\s+/).filter(Boolean);
    const argv = words.map((word) => (word === README_PROJECT ? project : word));
    const [program, ...args] = argv;
    if (program === undefined) continue;
    if (program === 'cd') cwd = args[0] ?? cwd;
    else steps.push({ argv: [program, ...args], cwd });
  }
  return steps;
}

/** The install block's one step whose command line starts with `words` (`bash`, `npm init`). */
export function stepOf(steps: readonly InstallStep[], ...words: string[]): InstallStep {
  const found = steps.filter((step) => words.every((word, i) => step.argv[i] === word));
  if (found.length !== 1)
    throw new Error(`the README's install block has ${found.length} ${words.join(' ')} lines`);
  return found[0] as InstallStep;
}

/** The install block's `npm install` of the packed tarballs. */
export function tarballInstallOf(steps: readonly InstallStep[]): InstallStep {
  const found = steps.filter((step) => step.argv[0] === 'npm' && step.argv.some(isTarball));
  if (found.length !== 1) throw new Error(`the README installs tarballs in ${found.length} lines`);
  return found[0] as InstallStep;
}

const isTarball = (arg: string) => /^\.\/dsh-sdk-.*\.tgz$/.test(arg);

/**
 * Sets up a project as the README's install block does, from `npm init` on: every `npm` line in
 * order, with the registry reachable as a user's is. (Offline with an empty cache, npm 11 refuses
 * three tarballs that share the optional `@types/node` peer: ERESOLVE, `@types/node@undefined`.)
 */
export async function setUpReadmeProject(steps: readonly InstallStep[]): Promise<void> {
  for (const step of steps.filter((s) => s.argv[0] === 'npm')) await runStep(step);
}

/** The tarball of each package, as the install block's `npm install` line names it. */
export function tarballsOf(npmInstall: InstallStep): Record<PackageName, string> {
  const entries = PACKAGE_NAMES.map((name) => {
    const spec = npmInstall.argv.find((arg) => arg.startsWith(`./dsh-sdk-${name}-`));
    if (spec === undefined) throw new Error(`the README's npm install names no ${name} tarball`);
    return [name, join(npmInstall.cwd, spec)] as const;
  });
  return Object.fromEntries(entries) as Record<PackageName, string>;
}

/** Runs an install step; `env` as a consumer's shell has it unless given. */
export function runStep(step: InstallStep, env?: NodeJS.ProcessEnv): Promise<CommandOutput> {
  const [program, ...args] = step.argv;
  return run(program, args, step.cwd, env);
}

/** npm with no registry at all: fails on anything the tarballs do not carry themselves. */
export function offlineEnv(): NodeJS.ProcessEnv {
  return { ...consumerEnv(), npm_config_offline: 'true' };
}

/** The names inside an npm tarball, without its `package/` folder. */
export async function tarballEntries(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], REPOSITORY);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((name) => name.replace(/^package\//, ''));
}

/** One file of an npm tarball, as text. */
export async function tarballFile(tarball: string, name: string): Promise<string> {
  return (await run('tar', ['-xzOf', tarball, `package/${name}`], REPOSITORY)).stdout;
}

/** A new folder in the system's temporary folder, far from any node_modules of the repository. */
export function createFolder(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `dsh-consumer-${label}-`));
}

/** A new npm project (an ES module one) in a new folder: for projects the README does not set up. */
export async function createProject(label: string): Promise<string> {
  const directory = await createFolder(label);
  const manifest = { name: `consumer-${label}`, private: true, type: 'module' };
  await writeFile(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return directory;
}

/** `npm install` of tarballs and registry packages, the way a consumer installs them. */
export async function npmInstall(project: string, specs: readonly string[]): Promise<void> {
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], project);
}

/** The version of a dev tool the repository pins (`typescript`: 5.9.x). */
export async function pinnedVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const version = manifest.devDependencies[name];
  if (version === undefined) throw new Error(`the repository pins no ${name}`);
  return version;
}

/** The README's ```json tsconfig block: the `tsconfig.json` it tells a user to write. */
export async function readmeTsconfig(): Promise<string> {
  const readme = await readFile(join(REPOSITORY, 'README.md'), 'utf8');
  const block = /^```json tsconfig\n([\s\S]*?)^```/m.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no ```json tsconfig block');
  return block;
}

/** The pages whose examples the consumer tests run: the README, then the guide it links to. */
export const EXAMPLE_PAGES = ['README.md', 'docs/guide.md'] as const;

/** The file the README's `example.ts` is saved as, for the `index`-th TypeScript example. */
export function exampleFile(index: number): string {
  return `example-${index}.ts`;
}

/** The code blocks tagged `consumer-example` in `language`, page by page, in order. */
export async function readmeExamples(language: string): Promise<string[]> {
  const pattern = new RegExp(`^\`\`\`${language} consumer-example\\n([\\s\\S]*?)^\`\`\``, 'gm');
  const pages = await Promise.all(
    EXAMPLE_PAGES.map((page) => readFile(join(REPOSITORY, page), 'utf8')),
  );
  return pages.flatMap((text) => [...text.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** The strictest settings the repository itself uses, for code checked in a scratch project. */
export const STRICT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    types: ['node'],
    noEmit: true,
  },
  include: ['*.ts'],
};
