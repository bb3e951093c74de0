/// <reference types="node" preserve="true" />
// A turn's runtime notifications as ACP `session/update`s, and its end as a stop reason
// (docs/acp.md, "Mapping").
import type { SessionUpdate, StopReason, ToolCallContent } from '@dsh-sdk/acp';
import { isAssistantChunkEvent, isToolCallEvent, isToolResultEvent } from '@dsh-sdk/client';
import type { ContentBlock, HarnessNotification, SessionEvent, TurnEndKind } from '@dsh-sdk/client';

/**
 * The updates one runtime notification of a turn makes, for the turn's root session `rootId`:
 * the root's streamed text and reasoning as message and thought chunks; its tool calls and every
 * subagent of the tree as tool calls, updated when they finish. Everything else makes none.
 */
export function toSessionUpdates(
  notification: HarnessNotification,
  rootId: string,
): SessionUpdate[] {
  switch (notification.method) {
    case 'session.event':
      return notification.params.sessionId === rootId
        ? eventUpdates(notification.params.event)
        : [];
    case 'subagent.started': {
      const { childSessionId } = notification.params;
      return [
        {
          sessionUpdate: 'tool_call',
          toolCallId: childSessionId,
          title: `Subagent ${childSessionId}`,
          kind: 'other',
          status: 'in_progress',
          rawInput: { ...notification.params },
        },
      ];
    }
    case 'subagent.finished': {
      const { childSessionId, status, lastAssistantMessage } = notification.params;
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: childSessionId,
          status: status === 'ok' ? 'completed' : 'failed',
          content: toolContent(lastAssistantMessage ?? []),
          rawOutput: { ...notification.params },
        },
      ];
    }
    default:
      return [];
  }
}

function eventUpdates(event: SessionEvent): SessionUpdate[] {
  if (isAssistantChunkEvent(event)) {
    const { delta } = event.data;
    if (delta.type === 'text' && 'text' in delta && delta.text !== '') {
      return [
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta.text } },
      ];
    }
    if (delta.type === 'reasoning' && 'text' in delta && delta.text !== '') {
      return [
        { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: delta.text } },
      ];
    }
    return [];
  }
  if (isToolCallEvent(event)) {
    const { id, name, arguments: args } = event.data;
    return [
      {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: name,
        kind: 'other',
        status: 'in_progress',
        rawInput: parseArguments(args),
      },
    ];
  }
  if (isToolResultEvent(event)) {
    const { toolCallId, content, isError } = event.data;
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: isError ? 'failed' : 'completed',
        content: toolContent(content),
      },
    ];
  }
  return [];
}

/** A tool's text output as ACP tool-call content; blocks other than text are left out. */
function toolContent(blocks: readonly ContentBlock[]): ToolCallContent[] {
  return blocks.flatMap((block): ToolCallContent[] =>
    block.type === 'text' && 'text' in block && typeof block.text === 'string'
      ? [{ type: 'content', content: { type: 'text', text: block.text } }]
      : [],
  );
}

/** A tool call's JSON arguments as an object; anything else is kept under `arguments`. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // not JSON: kept as text below
  }
  return { arguments: text };
}

/** The turn's end as ACP's stop reason; `error` is not one (it fails the prompt instead). */
export function toStopReason(finishReason: TurnEndKind | undefined): StopReason {
  switch (finishReason) {
    case 'max-tokens':
      return 'max_tokens';
    case 'aborted':
      return 'cancelled';
    case undefined:
    case 'completed':
      return 'end_turn';
    default:
      // A kind a backend adds: ACP's word when it has one, else the turn simply ended.
      return String(finishReason) === 'refusal' ? 'refusal' : 'end_turn';
  }
}
