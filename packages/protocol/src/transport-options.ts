// How a JsonRpcLineTransport is made and what it offers a peer: the options object, or the
// original package's (input, output) streams, and the outbound surface both share.
/// <reference types="node" preserve="true" />
import type { Readable, Writable } from 'node:stream';
import type { DiagnosticObserver } from './diagnostics.js';
import type { RequestOptions } from './pending-requests.js';

/**
 * The outbound surface of a JSON-RPC connection: what one side can send the other. As wide as
 * the original package's, so that a peer written for it satisfies this one too; the generated
 * peers need the narrower {@link PeerTransport}.
 */
export interface JsonRpcTransportPeer {
  /** Sends a request and resolves with the response's `result`. */
  request(
    method: string,
    params?: unknown,
    options?: RequestOptions | AbortSignal,
  ): Promise<unknown>;
  /** Sends a notification. */
  notify(method: string, params?: unknown): void | Promise<void>;
}

/** Options of a {@link JsonRpcLineTransport}. */
export interface JsonRpcLineTransportOptions extends JsonRpcLineTransportSettings {
  /** Where messages come from (for a client, the runtime's stdout). */
  readonly input: Readable;
  /** Where messages go (for a client, the runtime's stdin). */
  readonly output: Writable;
}

/** The options besides the streams, for `new JsonRpcLineTransport(input, output, settings)`. */
export interface JsonRpcLineTransportSettings {
  /** Longest accepted line in bytes, before its `\n`; defaults to `DEFAULT_MAX_FRAME_BYTES`. */
  readonly maxFrameBytes?: number;
  /** Receives a report for everything the transport ignores. */
  readonly onDiagnostic?: DiagnosticObserver;
}

/** The options of either constructor form, with streams checked: a wrong call fails here, clearly. */
export function transportOptions(
  first: JsonRpcLineTransportOptions | Readable,
  output: Writable | undefined,
  settings: JsonRpcLineTransportSettings,
): JsonRpcLineTransportOptions {
  const options =
    output === undefined
      ? (first as JsonRpcLineTransportOptions)
      : { ...settings, input: first as Readable, output };
  if (!isStream(options.input) || !isStream(options.output)) {
    throw new TypeError(
      'JsonRpcLineTransport needs an input and an output stream: new JsonRpcLineTransport(input, output) or new JsonRpcLineTransport({ input, output })',
    );
  }
  return options;
}

function isStream(value: unknown): boolean {
  return typeof (value as { on?: unknown } | undefined)?.on === 'function';
}
