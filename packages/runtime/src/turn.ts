// Running one turn of a session: the frames of docs/reference-runtime.md, "A prompt", in order.
import type { AssistantMessage, InboxSplice, UserMessage } from '@dsh-sdk/protocol';
import type { ModelPrompt, ModelReply, ModelRoute } from './adapters/model-adapter.js';
import { runDelegation } from './delegation.js';
import type { Notifier } from './notifier.js';
import type { Session, SessionRegistry } from './session.js';

/** What every turn of the runtime shares. */
export interface TurnContext {
  /** The route the handshake resolved. */
  readonly route: ModelRoute;
  readonly notifier: Notifier;
  readonly sessions: SessionRegistry;
  /** A pause before each `assistant/chunk` (0: none). Changes timing only, never frames. */
  readonly chunkDelayMs: number;
  /** Whether a child that stops with `max-tokens` finished `ok` (the original's deployment option). */
  readonly maxTokensIsSuccess: boolean;
}

/** The user message a turn answers, and what the model sees of it. */
export interface TurnInput {
  readonly message: UserMessage;
  readonly prompt: ModelPrompt;
}

/** The only step of an echo turn. */
const STEP = 0;

/**
 * Runs a turn on `session`: status `running`, the inbox splice (the prompt's receipt), the
 * turn and step frames around the streamed reply (and a child agent, when the model delegates),
 * then status `idle`. Resolves with the reply once every frame was handed to the output.
 */
export async function runTurn(
  session: Session,
  input: TurnInput,
  context: TurnContext,
): Promise<ModelReply> {
  const { route } = context;
  const turn = session.nextTurnIndex();
  await session.setStatus('running');
  const splice: InboxSplice = { target: 'next-turn', start: 0, inserted: [input.message] };
  await session.emit('agent/inbox/spliced', splice);
  await session.emit('turn/start', { turn });
  await session.emit('user/message', input.message);
  await session.emit('step/start', { turn, step: STEP });
  const task = route.adapter.chooseDelegation(input.prompt);
  const delegation =
    task === undefined
      ? undefined
      : await runDelegation({ parent: session, turn, step: STEP, task }, context, runTurn);
  const reply = route.adapter.generateReply(input.prompt, route, delegation);
  await streamReply(session, turn, reply, `${input.message.id}/reply`, context.chunkDelayMs);
  await session.emit('step/end', { turn, step: STEP });
  await session.emit('turn/end', { turn, reason: { kind: reply.finish } });
  await session.setStatus('idle');
  return reply;
}

/** The `assistant/chunk` of every piece, then the whole `assistant/message`. */
async function streamReply(
  session: Session,
  turn: number,
  reply: ModelReply,
  replyId: string,
  chunkDelayMs: number,
): Promise<void> {
  for (const piece of reply.pieces) {
    if (chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
    await session.emit('assistant/chunk', {
      turn,
      step: STEP,
      delta: { type: 'text', text: piece },
    });
  }
  const message: AssistantMessage = {
    id: replyId,
    role: 'assistant',
    content: [{ type: 'text', text: reply.text }],
  };
  await session.emit('assistant/message', { message, usage: { ...reply.usage } });
}
