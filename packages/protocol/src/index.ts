// The public API of @dsh-sdk/protocol: named re-exports only, one flat list.

export { JsonRpcLineTransport } from './transport.js';
export type {
  JsonRpcLineTransportOptions,
  JsonRpcLineTransportSettings,
  JsonRpcTransportPeer,
  TransportState,
} from './transport.js';
export type {
  CatchAllNotificationHandler,
  CatchAllRequestHandler,
  NotificationContext,
  NotificationHandler,
  RequestContext,
  RequestHandler,
} from './inbound-handlers.js';
export type { RequestOptions } from './pending-requests.js';
export {
  describeResponseError,
  JsonRpcResponseError,
  RequestAbortedError,
  RequestTimeoutError,
  TransportClosedError,
  VIOLATIONS_IN_MESSAGE,
} from './errors.js';
export type { TransportCloseReason } from './errors.js';
export type { DiagnosticCounts, DiagnosticObserver, TransportDiagnostic } from './diagnostics.js';
export type { JsonRpcErrorObject, JsonRpcId } from './classify.js';
export type { JsonRpcResponseErrorOptions } from './errors.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  MAX_NESTING_DEPTH,
  MAX_SAFE_INTEGER,
  SERVER_NAME,
} from './gen/constants.gen.js';
export type { DiagnosticReason } from './gen/constants.gen.js';

// Generated from protocol.idl.json. Every payload, frame and vocabulary type, by its IDL name.
export type * from './gen/types.gen.js';
export {
  DIAGNOSTIC_REASONS,
  ERROR_MESSAGES,
  formatMessage,
  IDL_VERSION,
  LATEST_PROTOCOL_VERSION,
  WireMessage,
} from './gen/constants.gen.js';
export type { MessagePlaceholders } from './gen/constants.gen.js';
// One type guard per known variant of each open union (a `switch` on `event.type` narrows too).
export {
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
} from './gen/guards.gen.js';
export { CAPABILITIES, METHODS, Method } from './gen/methods.gen.js';
export type {
  CapabilityInfo,
  CapabilityName,
  HarnessSdkNotificationMap,
  HarnessSdkRequestMap,
  MethodInfo,
  MethodName,
  NotificationMethod,
  RequestMethod,
} from './gen/methods.gen.js';
export {
  validateInitializeParams,
  validateInitializeResult,
  validateProtocolFrame,
  validateSessionEventNotification,
  validateSessionPromptParams,
  validateSessionPromptResult,
  validateSessionStatusNotification,
  validateShutdownParams,
  validateShutdownResult,
  validateSubagentFinishedNotification,
  validateSubagentStartedNotification,
} from './gen/validators.gen.js';
export type { ValidationError, Validator } from './gen/validators.gen.js';
export {
  HarnessSdkClientPeer,
  HarnessSdkNotifier,
  HarnessSdkServerPeer,
  serveHarnessSdk,
} from './gen/peers.gen.js';
export type { HarnessSdkNotification, HarnessSdkRequestHandlers } from './gen/peers.gen.js';
// What generated peers of other protocols (@dsh-sdk/acp) import to run on this transport.
export {
  NotificationFanout,
  ProtocolError,
  requireValidParams,
  requireValidResult,
} from './peer-support.js';
export type { PeerOptions, PeerTransport, Subscriber } from './peer-support.js';
export { toViolations } from './violations.js';
export { METHOD_VALIDATORS } from './gen/validators.gen.js';
export type { MethodValidators } from './gen/validators.gen.js';

// Recording a connection (docs/trace-format.md): the recorder, a file writer, the record types
// (generated from trace-format.schema.json, the format's one definition).
export { TRACE_FORMAT, TRACE_FORMAT_VERSION } from './trace-format.gen.js';
export type {
  TraceDirection,
  TraceEndOfStream,
  TraceExit,
  TraceFinding,
  TraceFindingReason,
  TraceFindingRecord,
  TraceFrame,
  TraceHeader,
  TraceLauncher,
  TraceMessageKind,
  TraceRecord,
} from './trace-format.gen.js';
export { TraceRecorder } from './trace-recorder.js';
export type { TraceFindingContext, TraceFinish, TraceRecorderOptions } from './trace-recorder.js';
export { TraceFileWriter } from './trace-writer.js';
export type { TraceFileWriterOptions } from './trace-writer.js';
export { playingVersion } from './version-gate.js';
export { capabilitiesAt, capabilityGuarding } from './capabilities.js';
