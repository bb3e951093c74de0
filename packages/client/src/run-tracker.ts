// One run's view of the notification stream (docs/protocol.md, "A prompt's life"): from the prompt's durable receipt to
// the root session's next `idle`, over the session tree the run owns.
import { Method } from '@dsh-sdk/protocol';
import type { SessionEvent, TurnEndKind } from '@dsh-sdk/protocol';
import type { RunStage } from './errors.js';
import type { HarnessNotification } from './notifications.js';
import { isEventOfType, textDeltaOf, textOf } from './session-events.js';

/** What a run produced, once its root session went idle. */
export interface RunResult {
  /** The root session. */
  readonly sessionId: string;
  /** The id of the prompt's user message (its receipt). */
  readonly messageId: string;
  /** The text of the root session's last `assistant/message` ('' when there was none). */
  readonly finalResponse: string;
  /**
   * The reply text the root session streamed during the run: the text deltas of its
   * `assistant/chunk`s joined, every step's, in order (what `streamText` yields; reasoning not
   * included). Complete for a turn that completed; for an interrupted one, what came before it
   * stopped. `RunTimeoutError` and `RunAbortedError` carry it too.
   */
  readonly partialResponse: string;
  /** The `reason.kind` of the root session's last `turn/end`; absent when there was none. */
  readonly finishReason?: TurnEndKind;
  /** The root session's events, from the receipt to the end of the run. */
  readonly events: readonly SessionEvent[];
  /** Every notification of the session tree (root and revealed children), in wire order. */
  readonly notifications: readonly HarnessNotification[];
}

/**
 * Follows one run. Subscribed before the prompt is sent; the prompt's response and its receipt
 * may come in either order, so notifications are buffered until the response is known.
 *
 * The run ends on the root session's next `idle` (the IDL's `session.status`), or once its turn ended `aborted`
 * (version 2: nothing of an interrupted turn follows its `turn/end`, and `idle` does not come
 * while prompts are queued): then at the root's next frame, the `idle` (kept) or the first frame
 * of the next queued turn (not this run's).
 */
export class RunTracker {
  readonly sessionId: string;
  /** Settles with the result, or with the error given to {@link fail}. */
  readonly done: Promise<RunResult>;
  readonly #onNotification: ((notification: HarnessNotification) => void) | undefined;
  readonly #tree: Set<string>;
  readonly #events: SessionEvent[] = [];
  readonly #notifications: HarnessNotification[] = [];
  /** The notifications seen while the messageId is still unknown. */
  #unmatched: HarnessNotification[] = [];
  #messageId: string | undefined;
  #isStarted = false;
  #isSettled = false;
  /** An error is on its way ({@link expire}): the run must not resolve meanwhile. */
  #isExpiring = false;
  #partialResponse = '';
  /** The root's turn ended `aborted`: the run ends at the root's next frame. */
  #isTurnAborted = false;
  #hasTurnEnded = false;
  #markStarted: () => void = () => {};
  /** Resolves once the receipt arrived, or the run settled without one. */
  readonly started: Promise<void>;
  #resolve: (result: RunResult) => void = () => {};
  #reject: (error: unknown) => void = () => {};

  constructor(sessionId: string, onNotification?: (notification: HarnessNotification) => void) {
    this.sessionId = sessionId;
    this.#onNotification = onNotification;
    this.#tree = new Set([sessionId]);
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // The caller may stop waiting (a failed prompt); the outcome is still observable.
    this.done.catch(() => undefined);
    this.started = new Promise((resolve) => (this.#markStarted = resolve));
    void this.done.then(this.#markStarted, this.#markStarted);
  }

  /** Whether the run has its result or its error. */
  get isSettled(): boolean {
    return this.#isSettled;
  }

  /** Where the run stands: before its receipt, or between the receipt and `idle`. */
  get stage(): RunStage {
    return this.#isStarted ? 'waiting-for-idle' : 'waiting-for-receipt';
  }

  /** Takes the prompt's response; replays the buffered notifications from the receipt on. */
  setMessageId(messageId: string): void {
    if (this.#isSettled || this.#messageId !== undefined) return;
    this.#messageId = messageId;
    const buffered = this.#unmatched;
    this.#unmatched = [];
    for (const notification of buffered) this.accept(notification);
  }

  /** Takes the next notification of the runtime (of any session), in wire order. */
  accept(notification: HarnessNotification): void {
    if (this.#isSettled) return;
    if (this.#isStarted) return this.#follow(notification);
    if (this.#messageId === undefined) {
      // Kept whole: the receipt and the children's first frames can come in the same read as
      // the response, before the caller has seen the response.
      this.#unmatched.push(notification);
    } else if (this.#isReceipt(notification, this.#messageId)) {
      this.#isStarted = true;
      this.#markStarted();
      this.#follow(notification);
    }
    // Otherwise it is another session's, or an earlier turn's of this session: not this run's.
  }

  /** The reply text streamed so far (see `RunResult.partialResponse`). */
  get partialResponse(): string {
    return this.#partialResponse;
  }

  /** The run's own turn ended (its root's first `turn/end`): what follows is a queued prompt's. */
  get hasTurnEnded(): boolean {
    return this.#hasTurnEnded;
  }

  /**
   * Keeps the run from resolving: its limit ran out and {@link fail} follows once the runtime
   * was told. Notifications are still taken, so the text streamed meanwhile is kept.
   */
  expire(): void {
    this.#isExpiring = true;
  }

  /** Ends the run with `error` (a timeout, an abort, the runtime exiting, a failed prompt). */
  fail(error: unknown): void {
    if (this.#isSettled) return;
    this.#isSettled = true;
    this.#unmatched = [];
    this.#reject(error);
  }

  #follow(notification: HarnessNotification): void {
    if (!this.#concernsTree(notification)) return;
    const isIdle =
      notification.method === Method.sessionStatus &&
      this.#isRoot(notification.params) &&
      notification.params.status === 'idle';
    if (this.#isTurnAborted && !isIdle && sessionsOf(notification).includes(this.sessionId))
      return this.#finish(); // the next queued turn's first frame
    this.#notifications.push(notification);
    this.#partialResponse += textDeltaOf(notification, this.sessionId) ?? '';
    if (notification.method === Method.subagentStarted) {
      this.#tree.add(notification.params.childSessionId);
    }
    if (notification.method === Method.sessionEvent && this.#isRoot(notification.params)) {
      const { event } = notification.params;
      this.#events.push(event);
      if (isEventOfType(event, 'turn/end')) {
        this.#hasTurnEnded = true;
        if (event.data.reason.kind === 'aborted') this.#isTurnAborted = true;
      }
    }
    try {
      this.#onNotification?.(notification);
    } catch (error) {
      return this.fail(error);
    }
    if (isIdle) this.#finish();
  }

  #finish(): void {
    if (this.#isSettled || this.#isExpiring || this.#messageId === undefined) return;
    this.#isSettled = true;
    let finalResponse = '';
    let finishReason: TurnEndKind | undefined;
    for (const event of this.#events) {
      if (isEventOfType(event, 'assistant/message'))
        finalResponse = textOf(event.data.message.content);
      if (isEventOfType(event, 'turn/end')) finishReason = event.data.reason.kind;
    }
    this.#resolve({
      sessionId: this.sessionId,
      messageId: this.#messageId,
      finalResponse,
      partialResponse: this.#partialResponse,
      ...(finishReason === undefined ? {} : { finishReason }),
      events: this.#events,
      notifications: this.#notifications,
    });
  }

  #isRoot(params: { readonly sessionId: string }): boolean {
    return params.sessionId === this.sessionId;
  }

  #isReceipt(notification: HarnessNotification, messageId: string): boolean {
    if (notification.method !== Method.sessionEvent) return false;
    if (!this.#isRoot(notification.params)) return false;
    const { event } = notification.params;
    return (
      isEventOfType(event, 'agent/inbox/spliced') &&
      event.data.inserted.some((message) => message.id === messageId)
    );
  }

  #concernsTree(notification: HarnessNotification): boolean {
    return sessionsOf(notification).some((sessionId) => this.#tree.has(sessionId));
  }
}

/** The session ids a notification's params can name. */
const SESSION_FIELDS = ['sessionId', 'parentSessionId', 'childSessionId'] as const;

/**
 * The sessions a notification is about: the session ids its params name (for a child's start or
 * end, its parent and itself). Read by name, so a notification added to the protocol is routed
 * without a list to update.
 */
function sessionsOf(notification: HarnessNotification): string[] {
  const params: Partial<Record<(typeof SESSION_FIELDS)[number], unknown>> = notification.params;
  return SESSION_FIELDS.map((field) => params[field]).filter((id) => typeof id === 'string');
}
