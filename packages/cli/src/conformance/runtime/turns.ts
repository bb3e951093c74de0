// Reading a turn off the wire: receipts, events, statuses and the end of a run, by session.
import type { JsonObject, ServerLine } from './server-line.js';
import type { RuntimeWire } from './wire.js';

/** The params of a notification line of `method`, or undefined. */
export function paramsOf(line: ServerLine, method: string): JsonObject | undefined {
  if (line.kind !== 'notification' || line.message?.['method'] !== method) return undefined;
  const params = line.message['params'];
  return typeof params === 'object' && params !== null ? (params as JsonObject) : undefined;
}

/** The event of a `session.event` of `sessionId` (of `type`, when given). */
export function eventOf(
  line: ServerLine,
  sessionId: string,
  type?: string,
): JsonObject | undefined {
  const params = paramsOf(line, 'session.event');
  if (params?.['sessionId'] !== sessionId) return undefined;
  const event = params['event'] as JsonObject;
  return type === undefined || event['type'] === type ? event : undefined;
}

export function isStatus(line: ServerLine, sessionId: string, status: string): boolean {
  const params = paramsOf(line, 'session.status');
  return params?.['sessionId'] === sessionId && params['status'] === status;
}

/** Whether the line concerns the session: its events, statuses, or subagents it started. */
export function concerns(line: ServerLine, sessionId: string): boolean {
  const params = paramsOf(line, String(line.message?.['method'] ?? ''));
  return params?.['sessionId'] === sessionId || params?.['parentSessionId'] === sessionId;
}

/** The message ids an `agent/inbox/spliced` event inserts. */
export function insertedIds(event: JsonObject): string[] {
  const inserted = (event['data'] as JsonObject | undefined)?.['inserted'];
  return Array.isArray(inserted) ? inserted.map((m) => String((m as JsonObject)['id'])) : [];
}

export const isReceiptOf =
  (sessionId: string, messageId: string) =>
  (line: ServerLine): boolean => {
    const event = eventOf(line, sessionId, 'agent/inbox/spliced');
    return event !== undefined && insertedIds(event).includes(messageId);
  };

/** A text prompt's params. */
export function textPrompt(sessionId: string, text: string): JsonObject {
  return { sessionId, contentBlocks: [{ type: 'text', text }] };
}

/** What the kit asks for when a turn must simply complete. */
export const SHORT_PROMPT =
  'Reply with one short sentence, and use no tools: this is a conformance check.';

/**
 * A prompt whose turn lasts: a long text to answer at length. Echo-like runtimes reply with
 * many chunks; the kit also stops reading while it interrupts, so a runtime that writes with
 * back-pressure is still running when the interrupt arrives.
 */
export const LONG_PROMPT = `Tell me a long story about the sea, slowly, in many words. ${'The waves roll in and out again, and the tide turns. '.repeat(450)}`;

/** The default `--delegate-prompt`: the reference runtimes' test agent, on a task that lasts. */
export const DEFAULT_DELEGATE_PROMPT = `/delegate ${LONG_PROMPT}`;

/** Runs a prompt: its answer, its receipt, and the turn's end and `idle` (all within bounds). */
export async function runPrompt(
  wire: RuntimeWire,
  sessionId: string,
  text: string,
): Promise<{
  messageId: string;
  answer: ServerLine;
  receipt: ServerLine;
  turnEnd: ServerLine;
  idle: ServerLine;
}> {
  const start = wire.lines.length;
  const id = wire.sendRequest('session/prompt', textPrompt(sessionId, text));
  const answered = await wire.answerTo(id, `session/prompt on ${sessionId}`);
  const result = answered['result'] as JsonObject | undefined;
  if (!result || typeof result['messageId'] !== 'string')
    throw new Error(
      `session/prompt on ${sessionId} was answered ${JSON.stringify(answered).slice(0, 200)}`,
    );
  const messageId = result['messageId'];
  const fresh = (test: (line: ServerLine) => boolean) => (line: ServerLine) =>
    line.index >= start && test(line);
  const answer = await wire.waitFor(
    fresh((l) => l.message === answered),
    'the answer',
  );
  const receipt = await wire.waitFor(
    fresh(isReceiptOf(sessionId, messageId)),
    `the receipt of ${messageId} (agent/inbox/spliced)`,
  );
  const turnEnd = await wire.waitFor(
    (l) => l.index > receipt.index && eventOf(l, sessionId, 'turn/end') !== undefined,
    `the turn/end of the prompt on ${sessionId}`,
  );
  const idle = await wire.waitFor(
    (l) => l.index > turnEnd.index && isStatus(l, sessionId, 'idle'),
    `session.status idle on ${sessionId} after its turn/end`,
  );
  return { messageId, answer, receipt, turnEnd, idle };
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
