// The public API of @dsh-sdk/client: named re-exports only.

export { HarnessClient } from './harness-client.js';
export type { HarnessClientOptions, RunOptions } from './harness-client.js';
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
export {
  RunAbortedError,
  RunTimeoutError,
  RuntimeExitedError,
  RuntimeNotInstalledError,
  RuntimeSpawnError,
  describeExit,
} from './errors.js';
export type { RunStage, RuntimeExit } from './errors.js';
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
