// Packing the workspace packages and installing them into scratch projects outside the repository.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
export const PACKAGE_NAMES = ['protocol', 'runtime', 'client'] as const;
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

/** pnpm, as the test runner was started by it (`npm_execpath`), else from PATH. */
function pnpm(args: readonly string[], cwd: string): Promise<CommandOutput> {
  const execPath = process.env['npm_execpath'];
  if (execPath?.includes('pnpm'))
    return run(process.execPath, [execPath, ...args], cwd, process.env);
  return run('pnpm', args, cwd, process.env);
}

/** Packs each package with `pnpm pack` (workspace: versions become real ones) into `destination`. */
export async function packPackages(destination: string): Promise<Record<PackageName, string>> {
  await mkdir(destination, { recursive: true });
  const tarballs: Partial<Record<PackageName, string>> = {};
  for (const name of PACKAGE_NAMES) {
    const directory = join(REPOSITORY, 'packages', name);
    const { stdout } = await pnpm(['pack', '--json', '--pack-destination', destination], directory);
    tarballs[name] = (JSON.parse(stdout) as { filename: string }).filename;
  }
  return tarballs as Record<PackageName, string>;
}

/** A new npm project in the system's temporary folder, far from any node_modules of the repository. */
export async function createProject(label: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `dsh-consumer-${label}-`));
  const manifest = { name: `consumer-${label}`, private: true, type: 'module' };
  await writeFile(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return directory;
}

/** `npm install` of tarballs and registry packages, the way a consumer installs them. */
export async function npmInstall(project: string, specs: readonly string[]): Promise<void> {
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], project);
}

/** The versions of the repository's own dev tools, so the scratch project compiles alike. */
export async function devToolSpecs(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return ['typescript', '@types/node'].map((name) => `${name}@${manifest.devDependencies[name]}`);
}

/** The README's code blocks tagged `consumer-example` in `language`, in order. */
export async function readmeExamples(language: string): Promise<string[]> {
  const readme = await readFile(join(REPOSITORY, 'README.md'), 'utf8');
  const pattern = new RegExp(`^\`\`\`${language} consumer-example\\n([\\s\\S]*?)^\`\`\``, 'gm');
  return [...readme.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The strictest settings the repository itself uses, for code compiled in a scratch project. */
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
    outDir: 'out',
  },
  include: ['*.ts'],
};
