// The names the inspector gives its traces: the runtime's, found past launchers and their
// options, with the run's start time; and where a restart's --out trace goes.
import { describe, expect, test } from 'vitest';
import { runtimeName, traceFileName, tracePathFor } from '../src/trace-names.js';

describe('runtimeName', () => {
  test.each([
    [['npx', 'dsh-sdk-runtime'], 'dsh-sdk-runtime'],
    [['npx', '-y', '@dsh-sdk/runtime@0.1.0'], 'dsh-sdk-runtime'],
    [['npm', 'exec', '--', 'dsh-sdk-runtime', '--protocol-version', '1'], 'dsh-sdk-runtime'],
    [['pnpm', 'dlx', 'dsh-sdk-runtime'], 'dsh-sdk-runtime'],
    [['node_modules/.bin/dsh-sdk-runtime'], 'dsh-sdk-runtime'],
    [['/usr/bin/node', '/x/test/fixtures/dies-mid-turn.mjs'], 'dies-mid-turn'],
    [['python3.12', '-m', 'dsh_sdk.runtime'], 'dsh_sdk.runtime'],
    [['env', 'DSH=1', 'bin/dsh-sdk-runtime-py'], 'dsh-sdk-runtime-py'],
    [['sh', './run-runtime.sh', '--verbose'], 'run-runtime'],
    [['npx'], 'runtime'],
  ])('%j is %s', (command, name) => {
    expect(runtimeName(command)).toBe(name);
  });
});

test('a trace is named after the runtime and its start, in local time', () => {
  const startedAt = new Date(2026, 2, 5, 14, 5, 9).getTime();
  expect(traceFileName(['npx', 'dsh-sdk-runtime'], startedAt)).toBe(
    'dsh-sdk-runtime-20260305-140509.trace.ndjson',
  );
});

test("--out FILE holds the first run's trace, FILE-2 the next one's", () => {
  expect(tracePathFor('/t/run.trace.ndjson', 1)).toBe('/t/run.trace.ndjson');
  expect(tracePathFor('/t/run.trace.ndjson', 2)).toBe('/t/run.trace-2.ndjson');
});
