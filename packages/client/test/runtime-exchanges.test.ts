// The conversation vectors marked `"runtime": true`, played against both reference runtimes over
// real pipes with the TypeScript side's frames: the TypeScript column of the interop matrix.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { PYTHON_RUNTIME_LAUNCHER, REFERENCE_RUNTIME_LAUNCHER } from '../src/runtime-launcher.js';
import { matchGroup, readEnvelopes } from '../../protocol/test/helpers/vector-exchanges.js';
import type {
  Envelope,
  ExchangeExpectation,
} from '../../protocol/test/helpers/vector-exchanges.js';
import { resolvePattern } from '../../protocol/test/helpers/vector-patterns.js';
import { budgetMs } from './helpers/time-budget.js';

const EXCHANGES = new URL('../../../test-vectors/exchanges/', import.meta.url).pathname;
const GROUP_TIMEOUT_MS = budgetMs(10_000);

const runtimeCases = readdirSync(EXCHANGES)
  .filter((name) => name.endsWith('.expect.json'))
  .map((name) => ({
    name: name.replace(/\.expect\.json$/, ''),
    expectation: JSON.parse(readFileSync(join(EXCHANGES, name), 'utf8')) as ExchangeExpectation,
  }))
  .filter(({ expectation }) => expectation.runtime === true);

function groupsOf(envelopes: readonly Envelope[]): Envelope[][] {
  const groups: Envelope[][] = [];
  for (const envelope of envelopes) {
    const last = groups.at(-1);
    if (last?.[0]?.from === envelope.from) last.push(envelope);
    else groups.push([envelope]);
  }
  return groups;
}

/** Plays the client's lines and waits, group by group, for the runtime's frames to match. */
async function play(
  launcher: string,
  envelopes: readonly Envelope[],
  expectation: ExchangeExpectation,
) {
  const ignoreNotifications = expectation.ignoreNotifications === true;
  const env = { ...process.env };
  if (expectation.chunkDelayMs !== undefined)
    env['DSH_SDK_RUNTIME_CHUNK_DELAY_MS'] = String(expectation.chunkDelayMs);
  const version = expectation.serverProtocolVersion;
  const args = version === undefined ? [] : ['--protocol-version', String(version)];
  const child = spawn(launcher, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  const exited = new Promise<string>((resolve) =>
    // 'close', not 'exit': the runtime's last lines are read by then.
    child.on('close', (code, signal) => resolve(signal ?? `code ${String(code)}`)),
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const startedAt = Date.now();
  let received: unknown[] = [];
  let wake: () => void = () => {};
  createInterface({ input: child.stdout }).on('line', (line) => {
    received.push(JSON.parse(line));
    wake();
  });
  let isClosed = false;
  let exit = '';
  void exited.then((how) => {
    isClosed = true;
    exit = how;
    wake();
  });
  let bindings = new Map<string, unknown>();
  try {
    for (const group of groupsOf(envelopes)) {
      if (group[0]?.from === 'client') {
        for (const { message } of group)
          child.stdin.write(`${JSON.stringify(resolvePattern(message, bindings))}\n`);
        continue;
      }
      const deadline = Date.now() + GROUP_TIMEOUT_MS;
      for (;;) {
        // After the runtime exited, replies marked ifOpen are not owed any more.
        const owed = isClosed ? group.filter((e) => e.ifOpen !== true) : group;
        const result = matchGroup(owed, received, bindings, ignoreNotifications);
        if (result.isMatch) {
          bindings = new Map(result.bindings);
          received = [];
          break;
        }
        if (!result.reason.startsWith('missing') || isClosed || Date.now() > deadline) {
          // Which of the three it was, and what the runtime said: a failure under load must tell.
          const state = isClosed ? `the runtime exited (${exit})` : 'the runtime is running';
          throw new Error(
            `${result.reason}\nreceived: ${JSON.stringify(received)}\n` +
              `after ${Date.now() - startedAt} ms; ${state}; stderr: ${stderr || '(none)'}`,
          );
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    }
  } finally {
    child.stdin.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    child.kill('SIGKILL');
  }
}

describe.each([
  ['TypeScript runtime', REFERENCE_RUNTIME_LAUNCHER],
  ['Python runtime', PYTHON_RUNTIME_LAUNCHER],
])('runtime conversation vectors against the %s', (_name, launcher) => {
  it('has runtime conversations to play', () => expect(runtimeCases.length).toBeGreaterThan(5));

  for (const { name, expectation } of runtimeCases) {
    it(
      `exchanges/${name}`,
      async () => {
        const envelopes = readEnvelopes(join(EXCHANGES, `${name}.ndjson`));
        await play(launcher, envelopes, expectation);
      },
      budgetMs(30_000),
    );
  }
});
