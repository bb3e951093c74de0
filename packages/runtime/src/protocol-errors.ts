// The error answers of the reference runtime, built from the generated codes and messages.
import { ERROR_MESSAGES, ErrorCode, JsonRpcResponseError, WireMessage } from '@dsh-sdk/protocol';
import type { Violation } from '@dsh-sdk/protocol';

/** `-32602` with `data` listing every violation, as the generated schema checks answer. */
export function invalidParamsError(violations: readonly Violation[]): JsonRpcResponseError {
  return new JsonRpcResponseError(
    ErrorCode.InvalidParams,
    ERROR_MESSAGES[ErrorCode.InvalidParams],
    {
      data: violations,
    },
  );
}

/** `-32600`: the request is not acceptable in the runtime's current state. */
export function invalidRequestError(
  message: typeof WireMessage.AlreadyInitialized | typeof WireMessage.ShuttingDown,
): JsonRpcResponseError {
  return new JsonRpcResponseError(ErrorCode.InvalidRequest, message);
}

/** `-32002`: a `session/prompt`, `session/interrupt` or `session/close` before a successful `initialize`. */
export function notInitializedError(): JsonRpcResponseError {
  return new JsonRpcResponseError(ErrorCode.NotInitialized, WireMessage.NotInitialized);
}
