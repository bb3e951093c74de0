// What the generated client and server peers (gen/peers.gen.ts) share: schema checks that speak
// the protocol's error shapes, and fan-out of one notification to many subscribers.
import type { TransportDiagnostic } from './diagnostics.js';
import { handlerFailureDiagnostic } from './diagnostics.js';
import { JsonRpcResponseError } from './errors.js';
import { ERROR_MESSAGES, ErrorCode, formatMessage, WireMessage } from './gen/constants.gen.js';
import type { Violation } from './gen/types.gen.js';
import type { Validator } from './gen/validators.gen.js';
import type {
  NotificationContext,
  NotificationHandler,
  RequestHandler,
} from './inbound-handlers.js';
import type { JsonRpcTransportPeer } from './transport.js';
import { toViolations } from './violations.js';

/** The transport surface the generated peers use; {@link JsonRpcLineTransport} provides it. */
export interface PeerTransport extends JsonRpcTransportPeer {
  /** Sends a notification; resolves once the output stream has taken it. */
  notify(method: string, params?: unknown): Promise<void>;
  onRequest(method: string, handler: RequestHandler): () => void;
  onNotification(method: string, handler: NotificationHandler): () => void;
  reportDiagnostic(diagnostic: TransportDiagnostic): void;
}

/** Options of the generated peers. */
export interface PeerOptions {
  /** Check inbound params and results against the schema (default true). Turn off only to measure. */
  readonly validate?: boolean;
}

/** A result that breaks the schema: the peer answered something the protocol does not allow. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';

  constructor(
    readonly method: string,
    readonly violations: readonly Violation[],
  ) {
    super(`the result of ${method} breaks the schema: ${describe(violations)}`);
  }
}

function describe(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.pointer || '/'} ${v.message}`).join('; ');
}

/** Returns valid params, or throws the `-32602` error whose `data` lists every violation. */
export function requireValidParams<T>(validate: Validator<T> | null, params: unknown): T {
  if (validate === null || validate(params)) return params as T;
  throw new JsonRpcResponseError(ErrorCode.InvalidParams, ERROR_MESSAGES[ErrorCode.InvalidParams], {
    data: toViolations(validate.errors),
  });
}

/** Returns a valid result, or throws a {@link ProtocolError} naming the method and the violations. */
export function requireValidResult<T>(
  validate: Validator<T> | null,
  method: string,
  result: unknown,
): T {
  if (validate === null || validate(result)) return result as T;
  throw new ProtocolError(method, toViolations(validate.errors));
}

/**
 * A subscriber of one notification method. It may be async: if it throws, or the promise it
 * returns rejects, the failure is reported (`void` lets any callback through, `push` included).
 */
export type Subscriber<T> = (params: T) => void;

/**
 * Delivers one notification method to any number of subscribers, after checking its params.
 * Params that break the schema are dropped and reported as `invalid-notification-params`. The
 * transport handler is registered with the first subscriber and unregistered with the last. A
 * subscriber that throws or rejects is reported as `notification-handler-failed`; the other
 * subscribers still get the params.
 */
export class NotificationFanout<T> {
  readonly #handlers = new Set<Subscriber<T>>();
  #unregister: (() => void) | undefined;

  constructor(
    private readonly transport: PeerTransport,
    private readonly method: string,
    private readonly validate: Validator<T> | null,
  ) {}

  subscribe(handler: Subscriber<T>): () => void {
    this.#handlers.add(handler);
    this.#unregister ??= this.transport.onNotification(this.method, this.#deliver);
    return () => {
      this.#handlers.delete(handler);
      if (this.#handlers.size > 0) return;
      this.#unregister?.();
      this.#unregister = undefined;
    };
  }

  /** The transport's handler: kept lean, it runs once per notification. */
  readonly #deliver = (params: unknown, context: NotificationContext): void | PromiseLike<void> => {
    if (this.validate !== null && !this.validate(params)) {
      const violations = toViolations(this.validate.errors);
      this.transport.reportDiagnostic({
        reason: 'invalid-notification-params',
        message: formatMessage(WireMessage.InvalidNotificationParams, {
          method: this.method,
          violations: describe(violations),
        }),
        line: context.line,
        bytes: context.bytes,
        method: this.method,
        violations,
      });
      return;
    }
    // The transport reports what the one subscriber throws or rejects with.
    if (this.#handlers.size === 1) {
      for (const handler of this.#handlers) return handler(params as T) as void | PromiseLike<void>;
    }
    // A snapshot, so a handler that unsubscribes does not skip its neighbour.
    for (const handler of [...this.#handlers]) this.#deliverTo(handler, params as T, context);
  };

  #deliverTo(handler: Subscriber<T>, params: T, context: NotificationContext): void {
    try {
      const outcome = handler(params) as void | PromiseLike<void>;
      if (outcome && typeof outcome.then === 'function') {
        outcome.then(undefined, (error: unknown) => this.#reportFailure(error, context));
      }
    } catch (error) {
      this.#reportFailure(error, context);
    }
  }

  /** The shape the transport reports for a failing handler of its own. */
  #reportFailure(error: unknown, context: NotificationContext): void {
    const reason = error instanceof Error ? error.message : String(error);
    const { line, bytes } = context;
    this.transport.reportDiagnostic(
      handlerFailureDiagnostic(this.method, line, bytes, error, reason),
    );
  }
}
