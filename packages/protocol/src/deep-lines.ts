import { classifyMessage } from './classify.js';
import type { ClassifiedMessage, JsonRpcId } from './classify.js';
import type { TransportDiagnostic } from './diagnostics.js';
import { ErrorCode, formatMessage, MAX_NESTING_DEPTH, WireMessage } from './gen/constants.gen.js';
import { readTopLevel } from './nesting.js';

/**
 * A line nested deeper than the limit is never parsed whole: it is reported, and when its top
 * level reads as a request with a valid id, answered `-32600` so that its caller does not wait.
 */
export function refuseDeepLine(
  text: string,
  place: { readonly line: number; readonly bytes: number },
  report: (diagnostic: TransportDiagnostic) => void,
  write: (message: object) => Promise<void>,
): void {
  const top = classifyMessage(readTopLevel(text));
  const { id, method } = salvage(top);
  report({
    ...{ reason: 'nesting-too-deep', line: place.line, bytes: place.bytes },
    message: formatMessage(WireMessage.NestingTooDeep, { limit: MAX_NESTING_DEPTH }),
    ...(id === undefined ? {} : { id }),
    ...(method === undefined ? {} : { method }),
  });
  if (top.kind !== 'request') return;
  const error = {
    code: ErrorCode.InvalidRequest,
    message: formatMessage(WireMessage.FrameNestedTooDeep, { limit: MAX_NESTING_DEPTH }),
  };
  write({ jsonrpc: '2.0', id: top.message.id, error }).catch(() => {
    // The output failed: the transport is closing, and nobody is left to tell.
  });
}

/** The id and method a classified value has, whatever its kind. */
function salvage(classified: ClassifiedMessage): {
  id?: JsonRpcId | undefined;
  method?: string | undefined;
} {
  switch (classified.kind) {
    case 'request':
      return { id: classified.message.id, method: classified.message.method };
    case 'notification':
      return { method: classified.message.method };
    case 'success':
    case 'error':
      return { id: classified.message.id };
    case 'malformed':
      return { id: classified.id, method: classified.method };
  }
}
