import { formatMessage, WireMessage } from './gen/constants.gen.js';
import type { DiagnosticReason } from './gen/constants.gen.js';
import type { JsonRpcId } from './classify.js';
import type { LineRejectionReason } from './line-reader.js';
import type { Violation } from './gen/types.gen.js';

/**
 * A report of something the transport ignored: a line it could not use, a
 * response nobody waits for, a notification it dropped or whose handler failed.
 */
export interface TransportDiagnostic {
  /** The reason code shared by every language's transport. */
  readonly reason: DiagnosticReason;
  /** A readable description, the same words in every language's transport. */
  readonly message: string;
  /**
   * What the underlying parser said, when there is more to say (for `invalid-json`): its
   * wording belongs to each language's JSON parser, so tools comparing languages skip it.
   */
  readonly detail?: string;
  /** 1-based number of the input line, when the report is about one. */
  readonly line?: number;
  /** Size of that line in bytes, without its `\n`; 0 when the report is about no line. */
  readonly bytes: number;
  /** The message's method, when known. */
  readonly method?: string;
  /** The message's id, when it has a valid one. */
  readonly id?: JsonRpcId;
  /** For `invalid-notification-params`: every violation found. */
  readonly violations?: readonly Violation[];
  /** For `notification-handler-failed`: what the handler threw. */
  readonly cause?: unknown;
}

/**
 * Receives every diagnostic of a transport. Called synchronously while the
 * input is read; if it throws, the error is ignored so that reading goes on.
 */
export type DiagnosticObserver = (diagnostic: TransportDiagnostic) => void;

/** How many diagnostics of each reason a transport has reported. */
export type DiagnosticCounts = Readonly<Partial<Record<DiagnosticReason, number>>>;

/**
 * The report of a notification handler of `method` that threw `error` (whose text is
 * `errorText`), for the message on input line `line` of `bytes` bytes.
 */
export function handlerFailureDiagnostic(
  method: string,
  line: number,
  bytes: number,
  error: unknown,
  errorText: string,
): TransportDiagnostic {
  return {
    reason: 'notification-handler-failed',
    message: formatMessage(WireMessage.NotificationHandlerFailed, { method, error: errorText }),
    line,
    bytes,
    method,
    cause: error,
  };
}

/** The message of a line the line reader dropped, for a reader whose limit is `maxFrameBytes`. */
export function lineRejectionMessage(reason: LineRejectionReason, maxFrameBytes: number): string {
  switch (reason) {
    case 'frame-too-large':
      return formatMessage(WireMessage.FrameTooLarge, { limit: maxFrameBytes });
    case 'invalid-utf8':
      return WireMessage.InvalidUtf8;
    case 'truncated-frame':
      return WireMessage.TruncatedFrame;
  }
}

/** Counts diagnostics by reason and hands each to an observer whose failures cannot stop reading. */
export class DiagnosticTally {
  readonly #counts: Partial<Record<DiagnosticReason, number>> = {};
  readonly #observer: DiagnosticObserver | undefined;

  constructor(observer: DiagnosticObserver | undefined) {
    this.#observer = observer;
  }

  /** How many of each reason were reported so far (a copy). */
  get counts(): DiagnosticCounts {
    return { ...this.#counts };
  }

  report(diagnostic: TransportDiagnostic): void {
    this.#counts[diagnostic.reason] = (this.#counts[diagnostic.reason] ?? 0) + 1;
    if (!this.#observer) return;
    try {
      this.#observer(diagnostic);
    } catch {
      // An observer bug must not stop the stream, and the transport has nowhere to log it.
    }
  }
}
