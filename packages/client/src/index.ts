// The public API of @dsh-sdk/client: named re-exports only.

export { HarnessClient } from './harness-client.js';
export type { HarnessClientOptions, RunOptions } from './harness-client.js';
export { CLIENT_RECORDER } from './connection-trace.js';
export type { TraceOptions } from './connection-trace.js';
export type { RunResult } from './run-tracker.js';
export type { RunStream, TextStream } from './run-stream.js';
export type { HarnessNotification, NotificationListener } from './notifications.js';
export {
  detectImageMimeType,
  imageFromBytes,
  imageFromFile,
  mimeTypeFromExtension,
  textBlock,
  toContentBlocks,
} from './content.js';
export type { PromptInput } from './content.js';
// Every error a client call can raise, the protocol's own included, so callers catch them here.
export {
  CapabilityNotSupportedError,
  ClientClosedError,
  InvalidParamsError,
  RunAbortedError,
  RunTimeoutError,
  RuntimeExitedError,
  RuntimeNotInstalledError,
  RuntimeSpawnError,
  RuntimeSurvivedKillError,
  describeExit,
} from './errors.js';
export {
  ErrorCode,
  JsonRpcResponseError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
  TransportClosedError,
} from '@dsh-sdk/protocol';
export type { CapabilityName, RunStage, RunStopDetails, RuntimeExit } from './errors.js';
export { DEFAULT_SHUTDOWN_STEP_MS } from './shutdown-ladder.js';
export type {
  ShutdownOptions,
  ShutdownReport,
  ShutdownStep,
  ShutdownStepReport,
} from './shutdown-ladder.js';
export { isEventOfType, textDeltaOf, textOf } from './session-events.js';
export type { KnownEventType, SessionEventOf } from './session-events.js';
export { RUNTIME_PACKAGE, defaultRuntimeCommand } from './runtime-launcher.js';
export { DEFAULT_STDERR_TAIL_BYTES } from './stderr-tail.js';

// The protocol's types, constants and guards that the API above takes and gives, so a user needs
// no direct dependency on @dsh-sdk/protocol.
export {
  describeResponseError,
  isAgentInboxSplicedEvent,
  isAssistantChunkEvent,
  isAssistantMessageEvent,
  isImageBlock,
  isReasoningBlock,
  isStepEndEvent,
  isStepStartEvent,
  isTextBlock,
  isToolCallBlock,
  isToolCallEvent,
  isToolResultBlock,
  isToolResultEvent,
  isTurnEndEvent,
  isTurnStartEvent,
  isUserMessageEvent,
  LATEST_PROTOCOL_VERSION,
  Method,
} from '@dsh-sdk/protocol';
export type {
  AgentInboxSplicedEvent,
  AssistantChunk,
  AssistantChunkEvent,
  AssistantMessageEvent,
  ContentBlock,
  DiagnosticObserver,
  ImageBlock,
  ImageMimeType,
  InitializeParams,
  InitializeResult,
  JsonRpcLineTransport,
  ReasoningBlock,
  RequestOptions,
  SdkEncodedImageBlock,
  SdkPromptContentBlock,
  ServerCapabilities,
  ServerInfo,
  SessionCloseParams,
  SessionCloseResult,
  SessionEvent,
  SessionEventNotification,
  SessionInterruptParams,
  SessionInterruptResult,
  SessionPromptParams,
  SessionPromptResult,
  SessionStatus,
  SessionStatusNotification,
  StepEndEvent,
  StepStartEvent,
  SubagentFinishedNotification,
  SubagentStartedNotification,
  TextBlock,
  ToolCallBlock,
  ToolCallEvent,
  ToolResultBlock,
  ToolResultEvent,
  TraceDirection,
  TraceFinding,
  TraceFindingContext,
  TransportDiagnostic,
  TurnAbortKind,
  TurnAbortReason,
  TurnEndEvent,
  TurnEndKind,
  TurnEndReason,
  TurnStartEvent,
  UnknownContentBlock,
  UnknownSessionEvent,
  UnknownValue,
  UserMessageEvent,
  Violation,
} from '@dsh-sdk/protocol';
