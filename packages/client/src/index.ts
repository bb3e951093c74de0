// The public API of @dsh-sdk/client: named re-exports only.

export { HarnessClient } from './harness-client.js';
export type { HarnessClientOptions, RunOptions } from './harness-client.js';
export { CLIENT_RECORDER } from './connection-trace.js';
export type { TraceOptions } from './connection-trace.js';
export type { RunResult } from './run-tracker.js';
export type { RunStream } from './run-stream.js';
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
export type { CapabilityName, RunStage, RuntimeExit } from './errors.js';
export { DEFAULT_SHUTDOWN_STEP_MS } from './shutdown-ladder.js';
export type {
  ShutdownOptions,
  ShutdownReport,
  ShutdownStep,
  ShutdownStepReport,
} from './shutdown-ladder.js';
export { isEventOfType, textOf } from './session-events.js';
export type { KnownEventType, SessionEventOf } from './session-events.js';
export { RUNTIME_PACKAGE, defaultRuntimeCommand } from './runtime-launcher.js';
export { DEFAULT_STDERR_TAIL_BYTES } from './stderr-tail.js';
