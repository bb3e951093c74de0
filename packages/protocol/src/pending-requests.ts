import { RequestAbortedError, RequestTimeoutError } from './errors.js';

/** Per-request options. */
export interface RequestOptions {
  /** Reject with {@link RequestTimeoutError} and forget the id if no response came in time. */
  readonly timeoutMs?: number;
  /** Reject with {@link RequestAbortedError} when aborted (the peer is not told). */
  readonly signal?: AbortSignal;
}

/**
 * What an aborted request rejects with: a {@link RequestAbortedError} (`options.signal`), or the
 * signal's reason itself, as `fetch` does (the signal as `request`'s third argument, the original
 * package's form; a reason that is no `Error` still gets a `RequestAbortedError`, its `cause`).
 */
export type AbortRejection = 'aborted-error' | 'signal-reason';

/** The callbacks of a request that waits for its response. */
export interface PendingRequest {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Entry extends PendingRequest {
  timer?: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
  signal?: AbortSignal;
}

/** Largest delay `setTimeout` honours; longer ones fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The requests waiting for a response, by id. Ids are numbers counting from 1.
 * A request that times out or is aborted is forgotten, so its late response
 * matches nothing.
 */
export class PendingRequests {
  readonly #entries = new Map<number, Entry>();
  #nextId = 1;

  /** Checks `options` before anything is sent; returns the error to reject with, if any. */
  static refuse(
    method: string,
    { timeoutMs, signal }: RequestOptions,
    rejection: AbortRejection = 'aborted-error',
  ): Error | undefined {
    if (timeoutMs !== undefined && !(timeoutMs >= 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
      return new RangeError(`timeoutMs must be between 0 and ${MAX_TIMEOUT_MS}, got ${timeoutMs}`);
    }
    if (signal?.aborted) return abortError(rejection, method, undefined, signal.reason);
    return undefined;
  }

  /** Registers a request under the next id, arms its timeout and abort signal, and returns the id. */
  add(
    request: PendingRequest,
    { timeoutMs, signal }: RequestOptions,
    rejection: AbortRejection = 'aborted-error',
  ): number {
    const id = this.#nextId++;
    const entry: Entry = { ...request };
    this.#entries.set(id, entry);
    if (timeoutMs !== undefined) {
      entry.timer = setTimeout(() => {
        this.take(id)?.reject(new RequestTimeoutError(request.method, id, timeoutMs));
      }, timeoutMs);
    }
    if (signal) {
      entry.signal = signal;
      entry.onAbort = () => {
        this.take(id)?.reject(abortError(rejection, request.method, id, signal.reason));
      };
      signal.addEventListener('abort', entry.onAbort, { once: true });
    }
    return id;
  }

  /** Removes the request with this id, disarming its timer and abort listener. */
  take(id: number): PendingRequest | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
    return entry;
  }

  /** Rejects and forgets every pending request. */
  rejectAll(error: Error): void {
    for (const id of [...this.#entries.keys()]) this.take(id)?.reject(error);
  }
}

function abortError(
  rejection: AbortRejection,
  method: string,
  id: number | undefined,
  reason: unknown,
): Error {
  if (rejection === 'signal-reason' && reason instanceof Error) return reason;
  return new RequestAbortedError(method, id, reason);
}

/** An `AbortSignal`, or one of another realm or polyfill: what `request`'s third argument may be. */
export function isAbortSignal(value: RequestOptions | AbortSignal): value is AbortSignal {
  const signal = value as Partial<AbortSignal>;
  return typeof signal.addEventListener === 'function' && typeof signal.aborted === 'boolean';
}
