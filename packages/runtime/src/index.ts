// The public API of @dsh-sdk/runtime: named re-exports only. The process entry is main.ts.

export { serveRuntime, describeDiagnostic } from './runtime.js';
export type { RuntimeEnd, RuntimeOptions } from './runtime.js';
export { RuntimeServer } from './server.js';
export type { RuntimeServerOptions, ServerState } from './server.js';
export { EchoAdapter, cutIntoPieces } from './adapters/echo-adapter.js';
export { isModelRoute } from './adapters/model-adapter.js';
export type {
  DelegationOutcome,
  ModelAdapter,
  ModelPrompt,
  ModelReply,
  ModelRoute,
  PromptImage,
} from './adapters/model-adapter.js';
export { resolveRoute } from './adapters/route-resolver.js';
export { AttachmentStore, attachmentIdOf, defaultAttachmentDirectory } from './attachment-store.js';
export type { StoredAttachment } from './attachment-store.js';
export { NotifierGate, RuntimeStoppedError } from './notifier.js';
export type { Notifier } from './notifier.js';
export { RUNTIME_VERSION } from './version.js';
export { TurnControl, TurnInterruptedError } from './turn-control.js';
