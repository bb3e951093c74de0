// `@dsh-sdk/protocol` as a drop-in for `@deepseek-ai/dsh-sdk-protocol` (docs/migrating.md): the
// packed tarball installed under the original's name with the one command the page gives, code
// written the original way (consumer/original-style/) compiled strictly against it, then run
// over real pipes: the client against both reference runtimes, the server under both SDK clients.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessClient } from '@dsh-sdk/client';
import { SERVER_NAME } from '@dsh-sdk/protocol';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  REPOSITORY,
  STRICT_TSCONFIG,
  createProject,
  npmInstall,
  pinnedVersion,
  run,
} from './helpers/scratch-project.js';

const ORIGINAL_STYLE = join(REPOSITORY, 'consumer', 'original-style');
const SOURCES = ['client.ts', 'server.ts', 'types.ts'];
const RUNTIMES = {
  TypeScript: [join(REPOSITORY, 'bin', 'dsh-sdk-runtime')],
  Python: [join(REPOSITORY, 'bin', 'dsh-sdk-runtime-py')],
};
const PYTHON = join(REPOSITORY, 'python', '.venv', 'bin', 'python');
const scale = Number(process.env['DSH_SDK_TEST_TIME_SCALE'] ?? '1') || 1;

let project: string;
let server: string[];
/** What `tsc` said of the original-style code: nothing, or its errors (it emits the JS either way). */
let compiled: string;

/** The strict settings, emitting JavaScript into `outDir` so the compiled code can be run. */
function compiledTo(outDir: string): object {
  const { noEmit: _noEmit, ...options } = STRICT_TSCONFIG.compilerOptions;
  return { ...STRICT_TSCONFIG, compilerOptions: { ...options, outDir } };
}

/** The install command of docs/migrating.md, with the packed tarball's path. */
async function migratingInstallCommand(): Promise<string[]> {
  const page = await readFile(join(REPOSITORY, 'docs', 'migrating.md'), 'utf8');
  const line = /^npm i(?:nstall)? @deepseek-ai\/dsh-sdk-protocol@\S+$/m.exec(page)?.[0];
  if (line === undefined) throw new Error('docs/migrating.md gives no alias install command');
  return line.split(' ');
}

beforeAll(async () => {
  project = await createProject('drop-in');
  await run('bash', [join(REPOSITORY, 'scripts', 'pack.sh'), project], REPOSITORY);
  const [npm, ...args] = await migratingInstallCommand();
  await run(npm as string, [...args, '--no-audit', '--no-fund'], project);
  const tools = ['typescript', '@types/node'];
  await npmInstall(
    project,
    await Promise.all(tools.map(async (t) => `${t}@${await pinnedVersion(t)}`)),
  );
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(compiledTo('out'), null, 2));
  for (const file of SOURCES) await cp(join(ORIGINAL_STYLE, file), join(project, file));
  compiled = await run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project).then(
    ({ stdout }) => stdout,
    (error: Error) => error.message,
  );
  server = [process.execPath, join(project, 'out', 'server.js')];
});

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('code written for @deepseek-ai/dsh-sdk-protocol, on @dsh-sdk/protocol', () => {
  test('the package answers to the original name, and the original-style code compiles strictly', async () => {
    const manifest = JSON.parse(
      await readFile(
        join(project, 'node_modules/@deepseek-ai/dsh-sdk-protocol/package.json'),
        'utf8',
      ),
    ) as { name: string };
    expect(manifest.name).toBe('@dsh-sdk/protocol');
    expect(compiled).toBe('');
  });

  test.each(Object.entries(RUNTIMES))(
    'an original-style client drives the %s reference runtime',
    async (_language, runtime) => {
      const timeoutMs = String(10_000 * scale);
      const args = [join('out', 'client.js'), JSON.stringify(runtime), timeoutMs];
      const { stdout } = await run(process.execPath, args, project);
      expect(JSON.parse(stdout)).toEqual({
        serverInfo: { name: SERVER_NAME, version: expect.any(String) as string },
        messageIdIsString: true,
        receipt: 'agent/inbox/spliced',
        answer: 'Echo: Hello',
        invalidParams: {
          name: 'JsonRpcResponseError',
          code: -32602,
          message: expect.stringMatching(/^Invalid params: \/contentBlocks/) as string,
          hasData: true,
        },
        methodNotFound: {
          name: 'JsonRpcResponseError',
          code: -32601,
          message: 'Method not found: no/such/method',
          hasData: false,
        },
        timedOut: { name: 'RequestTimeoutError', message: 'no/such/method timed out' },
        shutdown: {},
        exitCode: 0,
      });
    },
  );

  test('the TypeScript client runs prompts on an original-style server, which flushes and exits 0', async () => {
    const initialize = { cwd: project, provider: 'echo', model: 'echo-1' };
    const client = await HarnessClient.spawn({ command: server, initialize });
    const first = await client.run('Hello');
    const second = await client.run('again', { sessionId: 's-2' });
    const report = await client.shutdown();
    expect(client.protocolVersion).toBe(1); // the original answers without protocolVersion
    expect([first.finalResponse, second.finalResponse]).toEqual(['Echo: Hello', 'Echo: again']);
    expect([first.finishReason, second.finishReason]).toEqual(['completed', 'completed']);
    expect(report).toMatchObject({ endedBy: 'shutdown-request', exitCode: 0 });
  });

  test('the Python client runs prompts on an original-style server, which flushes and exits 0', async () => {
    const script = join(ORIGINAL_STYLE, 'py_client.py');
    const { stdout } = await run(PYTHON, [script, JSON.stringify(server)], project);
    expect(JSON.parse(stdout)).toEqual({
      protocolVersion: 1,
      answers: ['Echo: Hello', 'Echo: again'],
      finishReasons: ['completed', 'completed'],
      endedBy: 'shutdown-request',
      exitCode: 0,
    });
  });
});
