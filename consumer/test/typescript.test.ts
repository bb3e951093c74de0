// The four TypeScript packages as a consumer gets them: packed and installed with the commands
// of the README's install block (npm, into projects outside the repository: no workspace links;
// test/readme-project.setup.ts), linted with publint, and run as the README says (`npx tsx`) — the
// README's and the guide's examples taken from the pages themselves. typecheck.test.ts type-checks.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { Method, SERVER_NAME } from '@dsh-sdk/protocol';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  isAbsolute,
  linkTargets,
  repositoryAddress,
  repositoryPath,
} from './helpers/readme-links.js';
import {
  PACKAGE_NAMES,
  REPOSITORY,
  consumerEnv,
  createProject,
  exampleFile,
  npmInstall,
  offlineEnv,
  readmeExamples,
  readmeInstallSteps,
  run,
  runStep,
  stepOf,
  tarballEntries,
  tarballFile,
  tarballInstallOf,
  tarballsOf,
} from './helpers/scratch-project.js';
import type { InstallStep, PackageName } from './helpers/scratch-project.js';

const TS_EXAMPLES = await readmeExamples('ts');

let steps: InstallStep[];
/**
 * What an example's output must show beyond its reply, found by a call only that example makes:
 * the interrupt example really interrupts (on its first streamed delta) and keeps that text; the
 * streaming example streams its reply in more than one delta.
 */
const OUTPUT_CHECKS: readonly (readonly [marker: string, check: (stdout: string) => void])[] = [
  ['stop.abort()', (stdout) => expect(stdout).toMatch(/^aborted "Echo: .+"$/m)],
  [
    "streamText('stream me",
    (stdout) => {
      const deltas = /^(\d+) deltas, as in the events: true$/m.exec(stdout)?.[1];
      expect(Number(deltas)).toBeGreaterThan(1);
    },
  ],
];

let tarballs: Record<PackageName, string>;
const full = inject('readmeProject'); // the README's project: all four packages, and cat.png
let withoutRuntime: string; // protocol and client only

beforeAll(async () => {
  steps = await readmeInstallSteps(full);
  tarballs = tarballsOf(tarballInstallOf(steps));
  withoutRuntime = await createProject('no-runtime');
  await npmInstall(withoutRuntime, [tarballs.protocol, tarballs.client]);
});

afterAll(async () => {
  await rm(withoutRuntime, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  test.each(PACKAGE_NAMES)('@dsh-sdk/%s is clean under publint --strict', async (name) => {
    const tarball = (await readFile(tarballs[name])).buffer as ArrayBuffer;
    const { messages, pkg } = await publint({
      pack: { tarball },
      strict: true,
      level: 'suggestion',
    });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  test.each(PACKAGE_NAMES)('@dsh-sdk/%s depends on real versions, not workspace:', async (name) => {
    const manifest = await readFile(
      join(full, 'node_modules', '@dsh-sdk', name, 'package.json'),
      'utf8',
    );
    expect(manifest).not.toContain('workspace:');
  });

  test.each(PACKAGE_NAMES)(
    '@dsh-sdk/%s carries a README, the LICENSE, its license and engines',
    async (name) => {
      const entries = await tarballEntries(tarballs[name]);
      expect(entries).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
      const license = await tarballFile(tarballs[name], 'LICENSE');
      expect(license).toBe(await readFile(join(REPOSITORY, 'LICENSE'), 'utf8'));
      const manifest = JSON.parse(await tarballFile(tarballs[name], 'package.json')) as {
        license?: string;
        engines?: Record<string, string>;
      };
      expect(manifest.license).toBe('MIT');
      expect(license.startsWith(`${manifest.license} License\n`)).toBe(true);
      expect(manifest.engines).toEqual({ node: '>=20' });
      const readme = await tarballFile(tarballs[name], 'README.md');
      expect(readme.startsWith(`# @dsh-sdk/${name}\n`)).toBe(true);
    },
  );

  test.each(PACKAGE_NAMES)(
    "@dsh-sdk/%s's README stands alone: no relative link leaves the package",
    async (name) => {
      const entries = await tarballEntries(tarballs[name]);
      const manifest = JSON.parse(await tarballFile(tarballs[name], 'package.json')) as {
        repository: { url: string };
      };
      const repository = repositoryAddress(manifest.repository);
      const targets = linkTargets(await tarballFile(tarballs[name], 'README.md'));
      const problems = targets.flatMap((target): string[] => {
        if (target.startsWith('#')) return [];
        if (!isAbsolute(target)) {
          const path = posix.normalize(target.replace(/[#?].*$/, ''));
          return entries.includes(path) ? [] : [`${target}: no ${path} in the package`];
        }
        if (!target.includes('github.com')) return [];
        // A link to the toolkit's repository names a file of this checkout.
        const path = repositoryPath(target, repository);
        if (path === undefined) return [`${target}: not a file of ${repository}`];
        return existsSync(join(REPOSITORY, path)) ? [] : [`${target}: no ${path} in the checkout`];
      });
      expect(problems).toEqual([]);
      // It points to the toolkit's README for the install, so the check had links to check.
      expect(targets).toContain(`${repository}/blob/main/README.md#installing`);
    },
  );

  test.each(PACKAGE_NAMES)(
    '@dsh-sdk/%s ships the source map each script names, with the sources the map names',
    async (name) => {
      const entries = await tarballEntries(tarballs[name]);
      const scripts = entries.filter((entry) => entry.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      const problems: string[] = [];
      let mapped = 0;
      for (const script of scripts) {
        const text = await tarballFile(tarballs[name], script);
        const url = /^\/\/# sourceMappingURL=(\S+)$/m.exec(text)?.[1];
        if (url === undefined) continue; // a hand-written script, such as a bin
        mapped += 1;
        const map = posix.join(posix.dirname(script), url);
        if (!entries.includes(map)) {
          problems.push(`${script} points at ${map}, which is not in the tarball`);
          continue;
        }
        const { sources, sourcesContent = [] } = JSON.parse(
          await tarballFile(tarballs[name], map),
        ) as { sources: string[]; sourcesContent?: (string | null)[] };
        sources.forEach((source, i) => {
          const shipped = entries.includes(posix.join(posix.dirname(map), source));
          if (!shipped && typeof sourcesContent[i] !== 'string') {
            problems.push(`${map} names ${source} but carries neither the file nor its text`);
          }
        });
      }
      expect(problems).toEqual([]);
      // The built scripts carry maps (tsconfig.base.json): the check above had some to check.
      expect(mapped).toBeGreaterThan(0);
    },
  );
});

describe('installed with npm into a project of its own', () => {
  test('`npx dsh-sdk-runtime` starts the runtime, which answers the handshake', async () => {
    const runtime = spawn('npx', ['--no-install', 'dsh-sdk-runtime'], {
      cwd: full,
      env: consumerEnv(),
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: Method.initialize,
      params: { cwd: full, provider: 'echo', model: 'echo-1' },
    };
    // stdin ends after the request: the runtime answers, then exits 0.
    runtime.stdin.end(`${JSON.stringify(initialize)}\n`);
    let stdout = '';
    runtime.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exitCode = await new Promise((resolve) => runtime.once('exit', resolve));
    expect(exitCode).toBe(0);
    const [answer] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: SERVER_NAME } } });
  });

  test.each(TS_EXAMPLES.map((_, index) => index))('`npx tsx` runs example %i', async (index) => {
    const source = TS_EXAMPLES[index] ?? '';
    const { stdout } = await run('npx', ['tsx', exampleFile(index)], full);
    // The client example prints the echo reply and its finish reason; the peer one the name.
    expect(stdout).toMatch(
      source.includes('@dsh-sdk/client') ? /Echo: [\s\S]* completed\n/ : SERVER_NAME,
    );
    for (const [marker, check] of OUTPUT_CHECKS) if (source.includes(marker)) check(stdout);
  });

  test.each(OUTPUT_CHECKS.map(([marker]) => marker))('one README example calls %s', (marker) => {
    expect(TS_EXAMPLES.filter((source) => source.includes(marker))).toHaveLength(1);
  });

  test('without @dsh-sdk/runtime, spawn fails before starting anything and says what to do', async () => {
    const script = `import { HarnessClient } from '@dsh-sdk/client';
try {
  const client = await HarnessClient.spawn({ initialize: { cwd: '.', provider: 'echo', model: 'echo-1' } });
  await client.shutdown();
  console.log(JSON.stringify({ name: 'no error: a runtime was found and started' }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, command: error.command, message: error.message }));
}
`;
    await writeFile(join(withoutRuntime, 'spawn.mjs'), script);
    const { stdout } = await run(process.execPath, ['spawn.mjs'], withoutRuntime);
    const failure = JSON.parse(stdout) as { name: string; command: string[]; message: string };
    expect(failure).toMatchObject({ name: 'RuntimeNotInstalledError', command: [] });
    // Nothing is on a registry: the message names the tarball that pack.sh makes, not a name.
    expect(failure.message).toContain('npm install ./dsh-sdk-runtime-VERSION.tgz');
    expect(failure.message).toContain('scripts/pack.sh');
    expect(failure.message).not.toContain('npm install @dsh-sdk/runtime');
    expect(failure.message).toContain('`command`');
  });
});

describe('`npx dsh-sdk` from @dsh-sdk/cli in the same project', () => {
  test("the README's `npx dsh-sdk --help` lists the verbs", async () => {
    const { stdout } = await runStep(stepOf(steps, 'npx'), offlineEnv());
    expect(stdout).toMatch(/^Usage: dsh-sdk <verb>/);
    for (const verb of ['trace', 'view', 'inspect']) expect(stdout).toMatch(`\n  ${verb} `);
  });

  test('a client records through `npx dsh-sdk trace`, and `npx dsh-sdk view` draws the page', async () => {
    const script = `import { HarnessClient } from '@dsh-sdk/client';
const client = await HarnessClient.spawn({
  command: ['npx', 'dsh-sdk', 'trace', '--out', 'cli.trace.ndjson', '--', 'npx', 'dsh-sdk-runtime'],
  initialize: { cwd: process.cwd(), provider: 'echo', model: 'echo-1' },
});
const run = await client.run('through the recorder');
await client.shutdown();
console.log(run.finalResponse);
`;
    await writeFile(join(full, 'through-cli.mjs'), script);
    const { stdout } = await run(process.execPath, ['through-cli.mjs'], full, offlineEnv());
    expect(stdout).toBe('Echo: through the recorder\n');
    const records = (await readFile(join(full, 'cli.trace.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; method?: string; findings?: number });
    expect(records.at(-1)).toMatchObject({ type: 'exit', findings: 0 });
    expect(records.some((record) => JSON.stringify(record).includes(Method.sessionPrompt))).toBe(
      true,
    );

    const view = ['dsh-sdk', 'view', 'cli.trace.ndjson', '--out', 'cli.html'];
    await run('npx', view, full, offlineEnv());
    const page = await readFile(join(full, 'cli.html'), 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('through the recorder'); // the trace is embedded in the page
  });
});
