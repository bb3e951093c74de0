// A parent turn handing a task to a child agent (docs/reference-runtime.md, "Delegation").
import type {
  ContentBlock,
  SdkRunStatus,
  SubagentStopReason,
  UserMessage,
} from '@dsh-sdk/protocol';
import type { DelegationOutcome, ModelReply } from './adapters/model-adapter.js';
import type { Session } from './session.js';
import type { TurnContext, TurnInput } from './turn.js';
import { TurnControl } from './turn-control.js';

/** The tool the echo model calls to delegate. */
const DELEGATE_TOOL = 'delegate';

/** Where in the parent's turn the delegation happens, and what it hands over. */
export interface DelegationRequest {
  readonly parent: Session;
  readonly turn: number;
  readonly step: number;
  readonly task: string;
}

/** Runs a whole turn on a session (passed in: turns and delegations call each other). */
export type TurnRunner = (
  session: Session,
  input: TurnInput,
  context: TurnContext,
  control: TurnControl,
) => Promise<ModelReply>;

/**
 * Streams, on the parent session: `tool/call`, `subagent.started`, the child's whole turn on
 * its own session (`<parent>/child<k>`), `subagent.finished` and `tool/result`. The child's
 * prompt is the task, with `source.kind` `parent`. Resolves with the child's reply.
 *
 * The child's turn is interrupted with the parent's (`parentControl`), or alone when its own
 * session is interrupted: it then ends `aborted`, and `subagent.finished` reports `aborted` with
 * the text it streamed so far. A parent that was interrupted writes no `tool/result`.
 */
export async function runDelegation(
  request: DelegationRequest,
  context: TurnContext,
  parentControl: TurnControl,
  runTurn: TurnRunner,
): Promise<DelegationOutcome> {
  const { parent, turn, step, task } = request;
  const index = parent.nextChildIndex();
  const toolCallId = `${parent.id}/call${index}`;
  const childSessionId = `${parent.id}/child${index}`;
  const args = JSON.stringify({ task });
  await parent.emit('tool/call', {
    turn,
    step,
    id: toolCallId,
    name: DELEGATE_TOOL,
    arguments: args,
  });
  await context.notifier.notifySubagentStarted({ parentSessionId: parent.id, childSessionId });
  const child = context.sessions.open(childSessionId);
  parent.addChild(childSessionId);
  const message: UserMessage = {
    id: child.nextMessageId(),
    role: 'user',
    content: [{ type: 'text', text: task }],
    source: { kind: 'parent' },
  };
  const prompt = { texts: [task], images: [] };
  const childControl = new TurnControl(parentControl);
  const reply = await runTurn(child, { message, prompt }, context, childControl);
  const isAborted = reply.finish === 'aborted';
  // An aborted child that streamed nothing has no last message (absent is not empty).
  const last: ContentBlock[] | undefined =
    isAborted && reply.text === '' ? undefined : [{ type: 'text', text: reply.text }];
  await context.notifier.notifySubagentFinished({
    provider: context.route.provider,
    agentId: childSessionId,
    parentSessionId: parent.id,
    childSessionId,
    status: runStatusOf(reply.finish, context.maxTokensIsSuccess),
    stopReason: reply.finish,
    ...(last === undefined ? {} : { lastAssistantMessage: last }),
  });
  parentControl.throwIfInterrupted();
  const content: ContentBlock[] = [{ type: 'text', text: reply.text }];
  await parent.emit('tool/result', { toolCallId, content, isError: isAborted });
  return { childSessionId, text: reply.text };
}

/** `ok` only for `completed` (and `max-tokens` when the runtime counts it as success). */
export function runStatusOf(
  stopReason: SubagentStopReason,
  maxTokensIsSuccess: boolean,
): SdkRunStatus {
  if (stopReason === 'completed') return 'ok';
  return stopReason === 'max-tokens' && maxTokensIsSuccess ? 'ok' : 'error';
}
