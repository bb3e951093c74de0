/// <reference types="node" preserve="true" />
// `dsh-sdk conformance client`: each scenario runs the driver afresh (its own process group),
// with the kit's stub as its runtime; the kit plays the runtime, the monitor checks the client's
// traffic, and the driver's result line is judged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupChild, describeExit, lastLine } from '../process-group.js';
import { REQUIREMENTS } from '../requirements/index.js';
import { aggregate } from '../results.js';
import type { CaseResult, RequirementResult } from '../results.js';
import { inPool, isNarrowed, selectCases, within } from '../selection.js';
import type { Selection } from '../selection.js';
import { CaseVerdicts } from '../verdicts.js';
import type { JsonObject } from '../runtime/server-line.js';
import { ClientMonitor, CLIENT_MONITORED } from './client-monitor.js';
import { readDriverOutput } from './driver-output.js';
import { FakeRuntime } from './fake-runtime.js';
import { CLIENT_SCENARIOS } from './scenarios.js';
import type { ClientScenario } from './scenarios.js';
import type { Play, Plan } from './turn-script.js';

export interface ClientKitOptions {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly route: JsonObject;
  readonly liveMs: number;
  readonly jobs: number;
  readonly selection: Selection;
  readonly onCase?: (result: CaseResult) => void;
}

export interface ClientRun {
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly cases: readonly CaseResult[];
  readonly requirements: readonly RequirementResult[];
}

/** The scenarios as cases: their own requirements, the monitor's besides. */
export const clientCases = (): readonly (ClientScenario & { id: string })[] =>
  CLIENT_SCENARIOS.map((s) => ({
    ...s,
    id: `client.${s.name}`,
    requirements: [...s.requirements, 'DSH-CLIENT-022'],
  }));

async function runScenario(
  scenario: ClientScenario & { id: string },
  options: ClientKitOptions,
): Promise<CaseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-conformance-'));
  const verdicts = new CaseVerdicts();
  const transcript: string[] = [];
  const monitor = new ClientMonitor(verdicts);
  const fake = new FakeRuntime(
    dir,
    (line) => transcript.push(line),
    (line) => monitor.check(line),
  );
  await fake.listen();
  const plan: Plan = {
    route: options.route,
    sessionId: `conformance-${scenario.name}`,
    prompt: 'Hello from the conformance kit.',
    stop: 'none',
    closeAfter: false,
    ...scenario.plan,
  };
  const play: Play = {
    fake,
    monitor,
    plan,
    verdicts,
    bound: (k = 1) => options.liveMs * k,
    notes: {},
  };
  const started = performance.now();
  const driver = new GroupChild(options.program, options.args, {
    ...options.env,
    DSH_CONFORMANCE_SCENARIO: scenario.name,
    DSH_CONFORMANCE_PLAN: JSON.stringify(plan),
    DSH_SDK_RUNTIME: JSON.stringify(fake.command()),
  });
  let stdout = '';
  driver.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const stdoutClosed = new Promise((resolve) => driver.child.stdout.once('close', resolve));
  driver.child.stdin.end();
  const played = scenario.play(play).then(
    () => undefined,
    (error: Error) => error.message,
  );
  const bound = options.liveMs * (scenario.scale ?? 3);
  const exit = await within(driver.exited, bound, () => undefined);
  const problem = await within(played, 1000, () => undefined);
  await within(stdoutClosed, 2000, () => undefined);
  if (!exit)
    verdicts.fail('DSH-CLIENT-022', `the driver was still running after ${bound / 1000} s`);
  else if (exit.code !== 0)
    verdicts.fail(
      'DSH-CLIENT-022',
      `the driver ${describeExit(exit)}; stderr: ${lastLine(driver.stderrTail.text())}`,
    );
  else verdicts.pass('DSH-CLIENT-022');
  if (fake.stdinClosedAt !== undefined) monitor.stdinClosed();
  const output = exit ? readDriverOutput(stdout, scenario.name) : 'the driver did not finish';
  if (typeof output === 'string') for (const r of scenario.requirements) verdicts.fail(r, output);
  else scenario.judge(play, output);
  if (problem)
    for (const r of scenario.requirements)
      if (!verdicts.findings.get(r)?.failures.length) verdicts.fail(r, problem);
  driver.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    id: scenario.id,
    title: scenario.title,
    requirements: scenario.requirements,
    durationMs: performance.now() - started,
    outcomes: verdicts.outcomes(),
    transcripts: [transcript],
    stderrTail: driver.stderrTail.text(),
  };
}

export async function runClientKit(options: ClientKitOptions): Promise<ClientRun> {
  const startedAt = new Date();
  const selected = selectCases(clientCases(), options.selection);
  const cases = await inPool(selected, options.jobs, async (scenario) => {
    const result = await runScenario(scenario, options);
    options.onCase?.(result);
    return result;
  });
  const requirements = aggregate(
    REQUIREMENTS.client,
    cases,
    () => undefined,
    isNarrowed(options.selection),
  );
  return { startedAt, endedAt: new Date(), cases, requirements };
}

export { CLIENT_MONITORED };
