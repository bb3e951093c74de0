// The protocol's names the page reads: methods from the generated table, event and block types as
// literals checked against the generated types (a rename in the IDL fails the page's typecheck).
import type {
  AgentInboxSplicedEvent,
  AssistantChunkEvent,
  AssistantMessageEvent,
  StepEndEvent,
  StepStartEvent,
  TextBlock,
  ReasoningBlock,
  ToolCallEvent,
  ToolResultEvent,
  TurnEndEvent,
  TurnEndKind as TurnEndKindType,
  SdkRunStatus,
  TurnStartEvent,
  UserMessageEvent,
} from '@dsh-sdk/protocol';
export { Method } from '@dsh-sdk/protocol/methods';

export const EventType = {
  inboxSpliced: 'agent/inbox/spliced' satisfies AgentInboxSplicedEvent['type'],
  turnStart: 'turn/start' satisfies TurnStartEvent['type'],
  stepStart: 'step/start' satisfies StepStartEvent['type'],
  stepEnd: 'step/end' satisfies StepEndEvent['type'],
  turnEnd: 'turn/end' satisfies TurnEndEvent['type'],
  userMessage: 'user/message' satisfies UserMessageEvent['type'],
  assistantChunk: 'assistant/chunk' satisfies AssistantChunkEvent['type'],
  assistantMessage: 'assistant/message' satisfies AssistantMessageEvent['type'],
  toolCall: 'tool/call' satisfies ToolCallEvent['type'],
  toolResult: 'tool/result' satisfies ToolResultEvent['type'],
} as const;

export const BlockType = {
  text: 'text' satisfies TextBlock['type'],
  reasoning: 'reasoning' satisfies ReasoningBlock['type'],
} as const;

/** The `turn/end` reasons the timeline colours (the union is open; others are drawn neutral). */
export const TurnEndKind = {
  completed: 'completed' satisfies TurnEndKindType,
  error: 'error' satisfies TurnEndKindType,
} as const;

export const RunStatus = {
  ok: 'ok' satisfies SdkRunStatus,
} as const;
