import type { InitializeParams } from '@dsh-sdk/protocol';
import { invalidParamsError } from '../protocol-errors.js';
import { isModelRoute } from './model-adapter.js';
import type { ModelAdapter, ModelRoute } from './model-adapter.js';

/**
 * Resolves the exact route of a handshake: the adapter of `params.provider`, then its model and
 * effort. Anything not served fails with `-32602` naming the offending field; nothing falls back.
 */
export function resolveRoute(
  adapters: readonly ModelAdapter[],
  params: InitializeParams,
): ModelRoute {
  const adapter = adapters.find((candidate) => candidate.provider === params.provider);
  if (!adapter) {
    const served = adapters.map((candidate) => candidate.provider).join(', ');
    const message = `provider "${params.provider}" is not served; served: ${served}`;
    throw invalidParamsError([{ pointer: '/provider', message }]);
  }
  const resolved = adapter.resolveRoute(params);
  if (!isModelRoute(resolved)) throw invalidParamsError([resolved]);
  return resolved;
}
