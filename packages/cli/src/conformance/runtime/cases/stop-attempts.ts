// How the kit stops a running turn, and tells a stop it can judge from a race it cannot. A
// first attempt stops the turn once it streams, the kit not reading for a moment, so a runtime
// that writes with back-pressure is mid-turn when the request arrives. A runtime that buffers its
// output may finish first: then a second attempt sends the prompts and the stop in one write,
// which the IDL says is handled in arrival order (the stop acts on the turn taken from the queue).
// When both races are lost the requirement is not tested (--env can slow the runtime); a turn
// that ended before the stop is never held against the runtime.
import type { RuntimeCaseContext } from '../case-context.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import { eventOf, sleep, textPrompt } from '../turns.js';
import type { Answer, RuntimeWire } from '../wire.js';

export type StopMode = 'streaming' | 'pipelined';
export type StopMethod = 'session/interrupt' | 'session/close';

export interface Stopped {
  readonly from: number;
  readonly answer: Answer;
  readonly answerLine: ServerLine;
}

export const TOO_FAST =
  'every turn ended before the kit could stop it: give the runtime a slower reply (--env), or list the requirement in --expected-failures';

/** Sends `method` for `target` once `watch`'s turn streams; 'too-fast' when it ended first. */
export async function stopWhileStreaming(
  wire: RuntimeWire,
  watch: string,
  method: StopMethod,
  from: number,
  target: string,
): Promise<Answer | 'too-fast'> {
  const first = await wire.waitFor(
    (l) =>
      l.index >= from &&
      (eventOf(l, watch, 'assistant/chunk') !== undefined ||
        eventOf(l, watch, 'turn/end') !== undefined),
    `the first assistant/chunk on ${watch}`,
  );
  if (eventOf(first, watch, 'turn/end')) return 'too-fast';
  wire.pauseReading();
  const id = wire.sendRequest(method, { sessionId: target });
  await sleep(100);
  wire.resumeReading();
  return wire.answerTo(id, `${method} on ${target}`);
}

/** Writes every prompt, then `method` for `target`, in one write. */
function sendPipelined(
  wire: RuntimeWire,
  prompts: readonly JsonObject[],
  method: StopMethod,
  target: string,
): Promise<Answer> {
  const lines: string[] = [];
  const request = (m: string, params: JsonObject) => {
    const id = wire.nextId();
    wire.expectAnswer(id, m, params);
    lines.push(JSON.stringify({ jsonrpc: '2.0', id, method: m, params }));
    return id;
  };
  for (const prompt of prompts) request('session/prompt', prompt);
  const id = request(method, { sessionId: target });
  wire.writeRaw(`${lines.join('\n')}\n`);
  return wire.answerTo(id, `${method} on ${target}`);
}

/** Prompts `texts` on `session` (the first runs, the others queue), then stops the turn watched. */
export async function promptAndStop(
  wire: RuntimeWire,
  mode: StopMode,
  session: string,
  texts: readonly string[],
  method: StopMethod,
  options: { watch?: string; target?: string } = {},
): Promise<Stopped | 'too-fast'> {
  const from = wire.lines.length;
  const prompts = texts.map((text) => textPrompt(session, text));
  const target = options.target ?? session;
  let answer: Answer | 'too-fast';
  if (mode === 'pipelined') answer = await sendPipelined(wire, prompts, method, target);
  else {
    for (const prompt of prompts) wire.sendRequest('session/prompt', prompt);
    answer = await stopWhileStreaming(wire, options.watch ?? session, method, from, target);
  }
  if (answer === 'too-fast') return 'too-fast';
  const line = answer;
  return { from, answer, answerLine: wire.lines.find((l) => l.message === line)! };
}

/** The session's `turn/end` lines since `from`. */
export function turnEnds(wire: RuntimeWire, session: string, from: number): ServerLine[] {
  return wire.lines.filter((l) => l.index >= from && eventOf(l, session, 'turn/end') !== undefined);
}

/** The `reason` of a `turn/end` line. */
export function reasonOf(line: ServerLine, session: string): JsonObject {
  return ((eventOf(line, session)?.['data'] as JsonObject | undefined)?.['reason'] ??
    {}) as JsonObject;
}

/** A problem with a stopped turn's reason, or undefined when it is `{kind: aborted, reason: {kind}}`. */
export function abortProblem(line: ServerLine, session: string, kind: string): string | undefined {
  const reason = reasonOf(line, session);
  const nested = (reason['reason'] as JsonObject | undefined)?.['kind'];
  return reason['kind'] === 'aborted' && nested === kind
    ? undefined
    : `the stopped turn ended ${JSON.stringify(reason)}, not {kind: "aborted", reason: {kind: "${kind}"}}`;
}

/**
 * Runs `attempt` streaming, then pipelined if the first could not judge; marks `requirements`
 * not tested when neither could. Each attempt gets its own session id.
 */
export async function withAttempts(
  ctx: RuntimeCaseContext,
  requirements: readonly string[],
  session: string,
  attempt: (mode: StopMode, session: string) => Promise<'judged' | 'raced'>,
): Promise<void> {
  for (const mode of ['streaming', 'pipelined'] as const)
    if ((await attempt(mode, `${session}-${mode}`)) === 'judged') return;
  for (const requirement of requirements) ctx.notTested(requirement, TOO_FAST);
}
