// The three TypeScript packages as a consumer gets them: packed, linted with publint, installed
// with npm into projects outside the repository (no workspace links), compiled with strict
// settings, and run — the README's examples taken from README.md itself.
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Method, SERVER_NAME } from '@dsh-sdk/protocol';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  PACKAGE_NAMES,
  STRICT_TSCONFIG,
  consumerEnv,
  createProject,
  devToolSpecs,
  npmInstall,
  packPackages,
  readmeExamples,
  run,
} from './helpers/scratch-project.js';
import type { PackageName } from './helpers/scratch-project.js';

// A 1×1 PNG: the README's client example prompts with `imageFromFile('cat.png')`.
const CAT_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2d9e7d70000000049454e44ae426082',
  'hex',
);

const TS_EXAMPLES = await readmeExamples('ts');

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
let full: string; // all three packages
let withoutRuntime: string; // protocol and client only
const projects: string[] = [];

beforeAll(async () => {
  const packs = await createProject('tarballs');
  projects.push(packs);
  tarballs = await packPackages(packs);
  [full, withoutRuntime] = await Promise.all([createProject('full'), createProject('no-runtime')]);
  projects.push(full, withoutRuntime);
  const tools = await devToolSpecs();
  await Promise.all([
    npmInstall(full, [...PACKAGE_NAMES.map((name) => tarballs[name]), ...tools]),
    npmInstall(withoutRuntime, [tarballs.protocol, tarballs.client]),
  ]);
  await writeFile(join(full, 'tsconfig.json'), JSON.stringify(STRICT_TSCONFIG, null, 2));
  await writeFile(join(full, 'cat.png'), CAT_PNG);
});

afterAll(async () => {
  await Promise.all(projects.map((dir) => rm(dir, { recursive: true, force: true })));
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

  test('a strict TypeScript snippet compiles against the installed types', async () => {
    await writeFile(join(full, 'typed-snippet.ts'), TYPED_SNIPPET);
    await run(join(full, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], full);
  });

  test.each(TS_EXAMPLES.map((_, index) => index))('README example %i runs', async (index) => {
    const source = TS_EXAMPLES[index] ?? '';
    const file = `readme-example-${index}`;
    await writeFile(join(full, `${file}.ts`), source);
    await run(join(full, 'node_modules', '.bin', 'tsc'), ['-p', '.'], full);
    const { stdout } = await run(process.execPath, [join('out', `${file}.js`)], full);
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
    expect(failure.message).toContain('npm install @dsh-sdk/runtime');
    expect(failure.message).toContain('`command`');
  });
});

/** Uses the public types; each `@ts-expect-error` fails the compile if the types were `any`. */
const TYPED_SNIPPET = `import { HarnessClient, RuntimeExitedError } from '@dsh-sdk/client';
import type { RunResult } from '@dsh-sdk/client';
import { ErrorCode, JsonRpcResponseError, Method } from '@dsh-sdk/protocol';
import type {
  HarnessSdkNotificationMap,
  HarnessSdkRequestMap,
  InitializeParams,
  SessionStatus,
} from '@dsh-sdk/protocol';

const route: InitializeParams = { cwd: '/w', provider: 'echo', model: 'echo-1', maxTokens: 64 };
// @ts-expect-error maxTokens is a number
const wrong: InitializeParams = { cwd: '/w', provider: 'echo', model: 'echo-1', maxTokens: '64' };
const status: SessionStatus = 'idle';
// @ts-expect-error session.status is closed: running or idle
const unknownStatus: SessionStatus = 'paused';
type PromptResult = HarnessSdkRequestMap[typeof Method.sessionPrompt]['result'];
const receipt: PromptResult = { messageId: 'm-1' };
type StatusParams = HarnessSdkNotificationMap['session.status'];
const params: StatusParams = { sessionId: 's-1', status };

export async function finishReason(): Promise<RunResult['finishReason']> {
  const client = await HarnessClient.spawn({ initialize: route });
  try {
    return (await client.run('hi')).finishReason;
  } catch (error) {
    if (error instanceof JsonRpcResponseError && error.code === ErrorCode.InvalidParams) return undefined;
    if (error instanceof RuntimeExitedError) throw new Error(error.stderrTail);
    throw error;
  } finally {
    await client.shutdown();
  }
}
export { wrong, unknownStatus, receipt, params };
`;
