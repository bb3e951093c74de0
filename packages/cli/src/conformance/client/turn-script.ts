// What the kit says as a runtime: the handshake, a turn's frames in the order the IDL's promptLife
// shows them, and shutdown. Scenarios bend these to test one thing each.
import { LATEST_PROTOCOL_VERSION, SERVER_NAME, capabilitiesAt } from '@dsh-sdk/protocol';
import type { CaseVerdicts } from '../verdicts.js';
import type { JsonObject } from '../runtime/server-line.js';
import type { ClientMonitor } from './client-monitor.js';
import type { FakeRuntime } from './fake-runtime.js';

/** What the driver is asked to do (DSH_CONFORMANCE_PLAN). */
export interface Plan {
  readonly route: JsonObject;
  readonly sessionId: string;
  readonly prompt: string;
  /** `first-delta`: stop the run (interrupt, or abort) when its first text delta arrives. */
  readonly stop: 'none' | 'first-delta';
  /** Close the session after the run. */
  readonly closeAfter: boolean;
}

/** What a scenario's runtime side works with. */
export interface Play {
  readonly fake: FakeRuntime;
  readonly monitor: ClientMonitor;
  readonly plan: Plan;
  readonly verdicts: CaseVerdicts;
  /** `k` liveness bounds, in ms. */
  bound(k?: number): number;
  /** Times the scenario noted (when it sent `idle`, …), in the fake's clock. */
  readonly notes: Record<string, number>;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export function reply(p: Play, request: JsonObject, result: unknown): void {
  p.monitor.answered(request['id']);
  p.fake.answer(request, result);
}

/** Answers `initialize` as a runtime of `version` would. */
export async function handshake(p: Play, version: 1 | 2 = 2, delayMs = 0): Promise<JsonObject> {
  const request = await p.fake.request('initialize', p.bound());
  if (delayMs > 0) await sleep(delayMs);
  const asked = (request['params'] as JsonObject | undefined)?.['protocolVersion'];
  const serverInfo = { name: SERVER_NAME, version: '0.0.0-conformance' };
  let result: JsonObject = { serverInfo };
  if (version >= 2 && typeof asked === 'number') {
    const negotiated = Math.min(asked, LATEST_PROTOCOL_VERSION);
    result =
      negotiated >= 2
        ? { serverInfo, protocolVersion: negotiated, capabilities: capabilitiesAt(negotiated) }
        : { serverInfo, protocolVersion: negotiated };
    p.monitor.side.capabilities = (result['capabilities'] as JsonObject | undefined) ?? {};
  }
  p.monitor.side.hasAnsweredInitialize = true;
  reply(p, request, result);
  return request;
}

/** Numbers a session's events. */
export class SessionLog {
  #seq = 0;
  constructor(readonly sessionId: string) {}

  event(type: string, data: JsonObject): JsonObject {
    const event = { type, seq: this.#seq++, time: Date.now(), data };
    return {
      jsonrpc: '2.0',
      method: 'session.event',
      params: { sessionId: this.sessionId, event },
    };
  }

  status(status: 'running' | 'idle'): JsonObject {
    return {
      jsonrpc: '2.0',
      method: 'session.status',
      params: { sessionId: this.sessionId, status },
    };
  }
}

/** The opening frames of a prompt's turn: running, its receipt, turn/start, user/message, step/start. */
export function openTurn(log: SessionLog, messageId: string, prompt: JsonObject): JsonObject[] {
  const message = {
    id: messageId,
    role: 'user',
    content: prompt['contentBlocks'],
    source: { kind: 'user' },
  };
  return [
    log.status('running'),
    log.event('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [message] }),
    log.event('turn/start', { turn: 0 }),
    log.event('user/message', message),
    log.event('step/start', { turn: 0, step: 0 }),
  ];
}

export const chunk = (log: SessionLog, text: string): JsonObject =>
  log.event('assistant/chunk', { turn: 0, step: 0, delta: { type: 'text', text } });

export const assistantMessage = (log: SessionLog, messageId: string, text: string): JsonObject =>
  log.event('assistant/message', {
    message: { id: `${messageId}/reply`, role: 'assistant', content: [{ type: 'text', text }] },
  });

/** step/end and turn/end (with `reason`); `idle` is the caller's. */
export function closeTurn(
  log: SessionLog,
  reason: JsonObject = { kind: 'completed' },
): JsonObject[] {
  return [log.event('step/end', { turn: 0, step: 0 }), log.event('turn/end', { turn: 0, reason })];
}

/** Answers the plan's prompt; returns the prompt and its log. */
export async function acceptPrompt(
  p: Play,
  delayMs = 0,
): Promise<{ prompt: JsonObject; log: SessionLog; messageId: string }> {
  const request = await p.fake.request('session/prompt', p.bound());
  const prompt = (request['params'] ?? {}) as JsonObject;
  const log = new SessionLog(String(prompt['sessionId']));
  const messageId = `${log.sessionId}/m1`;
  if (delayMs > 0) await sleep(delayMs);
  reply(p, request, { messageId });
  return { prompt, log, messageId };
}

/** A whole turn answering the plan's prompt with `chunks`, then `text` as the message. */
export async function serveTurn(
  p: Play,
  chunks: readonly string[],
  text: string,
  between: (log: SessionLog) => JsonObject[] = () => [],
): Promise<void> {
  const { prompt, log, messageId } = await acceptPrompt(p);
  p.fake.send(
    ...openTurn(log, messageId, prompt),
    ...between(log),
    ...chunks.map((c) => chunk(log, c)),
    assistantMessage(log, messageId, text),
    ...closeTurn(log),
    log.status('idle'),
  );
}

/** How long the fake keeps reading after answering `shutdown`, unless stdin ends first. */
const FLUSH_MS = 500;

/**
 * Answers `shutdown` (whenever it came) and exits 0, after a flush that ends with stdin or
 * FLUSH_MS: a runtime may still be reading then (WIRE.md §8), so what a client sends after the
 * answer reaches the monitor instead of racing the exit.
 */
export async function serveShutdown(p: Play, delayMs = 0): Promise<void> {
  const request = await p.fake.request('shutdown', p.bound(2));
  if (delayMs > 0) await sleep(delayMs);
  p.monitor.side.hasAnsweredShutdown = true;
  reply(p, request, {});
  p.monitor.side.isGone = true;
  await p.fake
    .until(() => p.fake.stdinClosedAt !== undefined, 'close stdin', FLUSH_MS)
    .catch(() => {});
  p.fake.exit(0);
}
