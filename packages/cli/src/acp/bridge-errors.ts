// The JSON-RPC errors the bridge answers ACP requests with (docs/acp.md, "Errors").
import { ERROR_MESSAGES, ErrorCode } from '@dsh-sdk/acp';
import {
  InvalidParamsError,
  JsonRpcResponseError,
  RuntimeExitedError,
  RuntimeSpawnError,
} from '@dsh-sdk/client';
import type { Violation } from '@dsh-sdk/client';

/** `-32602` listing every violation, as the generated validators answer bad params. */
export function invalidParams(violations: readonly Violation[]): JsonRpcResponseError {
  return new JsonRpcResponseError(
    ErrorCode.InvalidParams,
    ERROR_MESSAGES[ErrorCode.InvalidParams],
    {
      data: violations,
    },
  );
}

/** `-32002`: ACP's "resource not found", for a session id the bridge did not create. */
export function unknownSession(sessionId: string): JsonRpcResponseError {
  return new JsonRpcResponseError(
    ErrorCode.ResourceNotFound,
    `no session ${JSON.stringify(sessionId)}: create it with session/new`,
    { data: { sessionId } },
  );
}

/** `-32600` for a request that needs a successful `initialize` first. */
export function notInitialized(): JsonRpcResponseError {
  return new JsonRpcResponseError(
    ErrorCode.InvalidRequest,
    'not initialized: send initialize first',
  );
}

/**
 * What a runtime failure becomes on the ACP side: the runtime's `-32602` with its pointers moved
 * from `/contentBlocks/…` to the ACP prompt's `/prompt/…`; a runtime that exited or could not
 * start as `-32603` with its exit and the end of its stderr; any other runtime error keeps its
 * code and message.
 */
export function toAcpError(error: unknown): JsonRpcResponseError {
  if (error instanceof InvalidParamsError || isInvalidParams(error)) {
    return invalidParams(
      (error.data as Violation[]).map((violation) => ({
        ...violation,
        pointer: violation.pointer.replace(/^\/contentBlocks/, '/prompt'),
      })),
    );
  }
  if (error instanceof RuntimeExitedError) {
    const { exitCode, signal, stderrTail } = error;
    return new JsonRpcResponseError(ErrorCode.InternalError, error.message, {
      data: { exitCode, signal, stderrTail },
    });
  }
  if (error instanceof RuntimeSpawnError) {
    return new JsonRpcResponseError(ErrorCode.InternalError, error.message, {
      data: { command: error.command },
    });
  }
  if (error instanceof JsonRpcResponseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new JsonRpcResponseError(ErrorCode.InternalError, message);
}

function isInvalidParams(error: unknown): error is JsonRpcResponseError {
  return (
    error instanceof JsonRpcResponseError &&
    error.code === ErrorCode.InvalidParams &&
    Array.isArray(error.data)
  );
}
