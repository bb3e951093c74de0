// The seam between the protocol layer and a model: the runtime resolves a route through an
// adapter at `initialize` and asks it for replies during turns. Adding a provider means adding
// an adapter beside `echo`; nothing in the server, sessions or turns changes.
import type { InitializeParams, TurnEndKind, Violation } from '@dsh-sdk/protocol';

/** The exact route a successful handshake resolved; every session of the runtime uses it. */
export interface ModelRoute {
  /** The adapter that serves the route. */
  readonly adapter: ModelAdapter;
  readonly provider: string;
  readonly model: string;
  /** The effort in force: the requested one, or the model's default when none was requested. */
  readonly reasoningEffort: string;
  /** Caps each model output (in the adapter's tokens); absent: no cap. */
  readonly maxTokens?: number;
}

/** An image of a prompt, as the model sees it: the durable reference and its size. */
export interface PromptImage {
  readonly attachmentId: string;
  readonly mediaType: string;
  readonly byteLength: number;
}

/** What the model sees of a user message: its text blocks and its images, in order. */
export interface ModelPrompt {
  readonly texts: readonly string[];
  readonly images: readonly PromptImage[];
}

/** What a child agent returned to the parent that delegated to it. */
export interface DelegationOutcome {
  readonly childSessionId: string;
  /** The text of the child's reply. */
  readonly text: string;
}

/** One model output: the streamed pieces, their concatenation, usage and why it stopped. */
export interface ModelReply {
  /** The pieces streamed as `assistant/chunk` deltas, in order. */
  readonly pieces: readonly string[];
  /** The whole message text: the pieces joined. */
  readonly text: string;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** The `turn/end` reason kind the output leads to. */
  readonly finish: TurnEndKind;
}

/** A provider adapter: resolves routes and produces replies. Pure: no I/O, no clock. */
export interface ModelAdapter {
  /** The provider name clients put in `InitializeParams.provider`. */
  readonly provider: string;
  /**
   * Resolves `params.model` and `params.reasoningEffort` (the provider is already known to be
   * this adapter's). Returns the route, or the violation that fails the handshake.
   */
  resolveRoute(params: InitializeParams): ModelRoute | Violation;
  /** The task the model hands to a child agent for this prompt, or `undefined` to answer itself. */
  chooseDelegation(prompt: ModelPrompt): string | undefined;
  /** The reply to `prompt`; `delegation` is present when a child agent ran first. */
  generateReply(prompt: ModelPrompt, route: ModelRoute, delegation?: DelegationOutcome): ModelReply;
}

/** Tells a resolved route from a violation. */
export function isModelRoute(value: ModelRoute | Violation): value is ModelRoute {
  return 'adapter' in value;
}
