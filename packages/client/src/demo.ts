// The repository's demo: start a reference runtime, run a prompt and a delegation while the
// replies stream, summarize what crossed the wire, and stop the runtime with the bounded ladder.
// Usage: node packages/client/dist/demo.js [--runtime ts|py] [--chunk-delay-ms N]
import { access, constants } from 'node:fs/promises';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { IDL_VERSION, Method } from '@dsh-sdk/protocol';
import { DemoPrinter, formatMs, shorten } from './demo-printer.js';
import { describeExit } from './errors.js';
import { imageFromBytes, textBlock } from './content.js';
import { HarnessClient } from './harness-client.js';
import type { HarnessNotification } from './notifications.js';
import type { RunResult } from './run-tracker.js';
import { PYTHON_RUNTIME_LAUNCHER, REFERENCE_RUNTIME_LAUNCHER } from './runtime-launcher.js';
import { isEventOfType, textOf } from './session-events.js';

/** A 1×1 PNG, to show an inline image becoming a durable attachment. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SESSION = 'demo';
const RUNTIMES = {
  ts: { launcher: REFERENCE_RUNTIME_LAUNCHER, name: 'TypeScript reference runtime' },
  py: { launcher: PYTHON_RUNTIME_LAUNCHER, name: 'Python reference runtime' },
} as const;

/** What the summary needs of one run. */
interface RunRecord {
  readonly title: string;
  readonly result: RunResult;
  readonly firstChunkMs: number | undefined;
  readonly idleMs: number;
}

const out = new DemoPrinter(process.stdout);

function parseOptions(): { runtime: keyof typeof RUNTIMES; chunkDelayMs: number } {
  const { values } = parseArgs({
    options: {
      runtime: { type: 'string', default: 'ts' },
      'chunk-delay-ms': { type: 'string', default: '40' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write('usage: demo.js [--runtime ts|py] [--chunk-delay-ms N]\n');
    process.exit(0);
  }
  const runtime = values.runtime;
  if (runtime !== 'ts' && runtime !== 'py')
    throw new Error(`--runtime must be ts or py, got ${runtime}`);
  const chunkDelayMs = Number(values['chunk-delay-ms']);
  if (!Number.isInteger(chunkDelayMs) || chunkDelayMs < 0)
    throw new Error('--chunk-delay-ms must be an integer ≥ 0');
  return { runtime, chunkDelayMs };
}

/** Runs one prompt, printing the tree's activity as it streams. */
async function runAndWatch(
  client: HarnessClient,
  title: string,
  prompt: Parameters<HarnessClient['run']>[0],
): Promise<RunRecord> {
  const started = performance.now();
  let firstChunkMs: number | undefined;
  const onNotification = (notification: HarnessNotification): void => {
    if (notification.method === Method.subagentStarted) {
      out.line('child', `${notification.params.childSessionId} started`);
    } else if (notification.method === Method.subagentFinished) {
      const { childSessionId, status, stopReason } = notification.params;
      out.line('child', `${childSessionId} finished: ${status}, ${stopReason}`);
    } else if (notification.method === Method.sessionEvent) {
      const { sessionId, event } = notification.params;
      const isRoot = sessionId === SESSION;
      if (isEventOfType(event, 'assistant/chunk')) {
        firstChunkMs ??= performance.now() - started;
        out.stream(isRoot ? 'agent ›' : 'child ›', textOf([event.data.delta]));
      } else if (isEventOfType(event, 'tool/call')) {
        out.line('tool', `${event.data.name} ${event.data.arguments}`);
      }
    }
  };
  const result = await client.run(prompt, {
    sessionId: SESSION,
    onNotification,
    timeoutMs: 30_000,
  });
  const idleMs = performance.now() - started;
  out.line(
    'done',
    `${result.finishReason ?? '—'} · ${result.events.length} events · messageId ${result.messageId} · idle after ${formatMs(idleMs)}`,
  );
  return { title, result, firstChunkMs, idleMs };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** A table with one row per key (first-seen order) and one column per run. */
function perRunTable(title: string, perRun: readonly Map<string, number>[]): (string | number)[][] {
  const keys = [...new Set(perRun.flatMap((counts) => [...counts.keys()]))];
  const header = [title, ...perRun.map((_, index) => `run ${index + 1}`)];
  return [header, ...keys.map((key) => [key, ...perRun.map((counts) => counts.get(key) ?? 0)])];
}

function printSummary(runs: readonly RunRecord[]): void {
  out.heading('summary');
  runs.forEach((run, index) => out.line(`run ${index + 1}`, run.title));
  out.heading();
  const events = runs.map((run) =>
    countBy(
      run.result.notifications.flatMap((n) =>
        n.method === Method.sessionEvent ? [n.params.event] : [],
      ),
      (event) => String(event.type), // an unknown type is an UnknownValue, a string at runtime
    ),
  );
  out.table(perRunTable('events per type (root + children)', events));
  out.heading();
  out.table(
    perRunTable(
      'notifications per method',
      runs.map((run) => countBy(run.result.notifications, (n) => n.method)),
    ),
  );
  out.heading();
  out.table([
    ['timing', 'first chunk', 'idle'],
    ...runs.map((run, index) => [
      `run ${index + 1}`,
      formatMs(run.firstChunkMs),
      formatMs(run.idleMs),
    ]),
  ]);
}

/** Starts the chosen runtime (chunks paced so the replies visibly stream) and shakes hands. */
async function startRuntime(
  runtime: keyof typeof RUNTIMES,
  chunkDelayMs: number,
): Promise<HarnessClient> {
  const { launcher, name } = RUNTIMES[runtime];
  await access(launcher, constants.X_OK).catch(() => {
    throw new Error(`${launcher} is missing or not executable (the ${name} is not available)`);
  });
  out.heading(`DeepSeek Harness SDK protocol ${IDL_VERSION} — client demo`);
  out.line('runtime', `${relative(process.cwd(), launcher) || launcher} (${name})`);
  const started = performance.now();
  const client = await HarnessClient.spawn({
    command: [launcher],
    initialize: { cwd: process.cwd(), provider: 'echo', model: 'echo-1' },
    env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: String(chunkDelayMs) },
  });
  const { name: server, version } = client.serverInfo;
  const took = formatMs(performance.now() - started);
  out.line('handshake', `${server} ${version} · pid ${client.pid} · echo/echo-1 · ${took}`);
  return client;
}

/** The two runs: a prompt with an image, then a delegation. */
async function runScenario(client: HarnessClient): Promise<RunRecord[]> {
  const question = 'What does a runtime owe its client? Frames on stdout, logs on stderr.';
  out.heading('[1] a prompt with an inline image');
  out.line('you', `${question} + a ${TINY_PNG.length}-byte PNG`);
  const image = imageFromBytes(TINY_PNG, 'image/png');
  const first = await runAndWatch(client, 'prompt + image', [textBlock(question), image]);
  const task = 'list the frames of a turn, in order';
  out.heading('[2] a delegation to a child agent');
  out.line('you', `/delegate ${task}`);
  const second = await runAndWatch(client, '/delegate', `/delegate ${task}`);
  out.line('final', shorten(second.result.finalResponse, 90));
  return [first, second];
}

/** Climbs the shutdown ladder and says how it went. */
async function shutDown(client: HarnessClient): Promise<void> {
  out.heading('shutdown');
  const report = await client.shutdown({ timeoutMs: 2000 });
  for (const step of report.steps) {
    out.line(step.step, `${step.outcome} (${formatMs(step.elapsedMs)})`);
  }
  const how = report.hasExited
    ? `the runtime ${describeExit(report)}`
    : 'the runtime survived SIGKILL';
  out.line('ended', `by ${report.endedBy}: ${how}, ${formatMs(report.elapsedMs)} in all`);
}

async function main(): Promise<void> {
  const { runtime, chunkDelayMs } = parseOptions();
  const client = await startRuntime(runtime, chunkDelayMs);
  try {
    printSummary(await runScenario(client));
  } finally {
    await shutDown(client);
  }
}

// A reader that goes away (`demo.js | head`) ends the demo quietly; the runtime then sees its
// stdin close and exits on its own.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `demo failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
