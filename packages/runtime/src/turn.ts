// Running one turn of a session: the frames of docs/reference-runtime.md, "A prompt", in order.
import type { AssistantMessage, InboxSplice, TurnAbortKind, UserMessage } from '@dsh-sdk/protocol';
import type { ModelPrompt, ModelReply, ModelRoute } from './adapters/model-adapter.js';
import { runDelegation } from './delegation.js';
import type { Notifier } from './notifier.js';
import type { Session, SessionRegistry } from './session.js';
import type { TurnControl } from './turn-control.js';
import { TurnInterruptedError } from './turn-control.js';

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
 *
 * Interrupted (`control`), it writes nothing more of its reply: an open step is closed, the turn
 * ends `aborted` with the interrupt's nested reason (`user`, `disposed` or `parent`), and `idle`
 * follows only when no prompt is queued behind it. It then resolves with the text streamed so far
 * and the finish `aborted` (what a parent reports of its child).
 */
export async function runTurn(
  session: Session,
  input: TurnInput,
  context: TurnContext,
  control: TurnControl,
): Promise<ModelReply> {
  const { route } = context;
  session.attach(control);
  const turn = session.nextTurnIndex();
  // The opening frames are written even when the turn is interrupted at once: they hold the
  // prompt's receipt, which a client waits for.
  await session.setStatus('running');
  const splice: InboxSplice = { target: 'next-turn', start: 0, inserted: [input.message] };
  await session.emit('agent/inbox/spliced', splice);
  await session.emit('turn/start', { turn });
  await session.emit('user/message', input.message);
  const streamed: string[] = [];
  let isStepOpen = false;
  let abortKind: TurnAbortKind;
  try {
    control.throwIfInterrupted();
    await session.emit('step/start', { turn, step: STEP });
    isStepOpen = true;
    const task = route.adapter.chooseDelegation(input.prompt);
    const delegation =
      task === undefined
        ? undefined
        : await runDelegation(
            { parent: session, turn, step: STEP, task },
            context,
            control,
            runTurn,
          );
    control.throwIfInterrupted();
    const reply = route.adapter.generateReply(input.prompt, route, delegation);
    const replyId = `${input.message.id}/reply`;
    await streamReply(session, turn, reply, replyId, context.chunkDelayMs, control, streamed);
    await session.emit('step/end', { turn, step: STEP });
    await session.emit('turn/end', { turn, reason: { kind: reply.finish } });
    await session.setStatus('idle');
    session.detach(control);
    return reply;
  } catch (error) {
    if (!(error instanceof TurnInterruptedError)) throw error;
    abortKind = error.abortKind;
  }
  if (isStepOpen) await session.emit('step/end', { turn, step: STEP });
  await session.emit('turn/end', {
    turn,
    reason: { kind: 'aborted', reason: { kind: abortKind } },
  });
  if (!session.hasQueuedTurns) await session.setStatus('idle');
  session.detach(control);
  const text = streamed.join('');
  return {
    pieces: streamed,
    text,
    usage: { inputTokens: 0, outputTokens: streamed.length },
    finish: 'aborted',
  };
}

/**
 * The `assistant/chunk` of every piece, then the whole `assistant/message`. Each frame is
 * written only if the turn was not interrupted (checked with no `await` before the write), so
 * no chunk follows the answer to `session/interrupt`; `streamed` collects the pieces sent.
 */
async function streamReply(
  session: Session,
  turn: number,
  reply: ModelReply,
  replyId: string,
  chunkDelayMs: number,
  control: TurnControl,
  streamed: string[],
): Promise<void> {
  for (const piece of reply.pieces) {
    if (chunkDelayMs > 0) await control.pause(chunkDelayMs);
    control.throwIfInterrupted();
    streamed.push(piece);
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
  control.throwIfInterrupted();
  await session.emit('assistant/message', { message, usage: { ...reply.usage } });
}
