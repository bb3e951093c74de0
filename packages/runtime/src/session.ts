import type { SessionEvent, SessionStatus, UnknownSessionEvent } from '@dsh-sdk/protocol';
import type { Notifier } from './notifier.js';

/** The event types the runtime emits, each with its generated payload type. */
type KnownSessionEvent = Exclude<SessionEvent, UnknownSessionEvent>;
type KnownEventType = KnownSessionEvent['type'];
type EventData<T extends KnownEventType> = Extract<KnownSessionEvent, { type: T }>['data'];

/** A queued turn: runs once the session's previous turns have ended. */
export type QueuedTurn = () => Promise<unknown>;

/** Resolves after the current macrotask: every response already handed to the writer goes first. */
function afterPendingWrites(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One session of the runtime: its durable log counters (`seq`, message ids, turns, children)
 * and its FIFO of turns. Turns of one session run one at a time in prompt order; sessions run
 * independently of each other.
 */
export class Session {
  readonly id: string;
  readonly #notifier: Notifier;
  readonly #onTurnFailed: (error: unknown, session: Session) => void;
  readonly #queue: QueuedTurn[] = [];
  #seq = 0;
  #messageCount = 0;
  #turnCount = 0;
  #childCount = 0;
  #isAcceptingTurns = true;
  #draining: Promise<void> | undefined;

  constructor(
    id: string,
    notifier: Notifier,
    onTurnFailed: (error: unknown, session: Session) => void,
  ) {
    this.id = id;
    this.#notifier = notifier;
    this.#onTurnFailed = onTurnFailed;
  }

  /** `<sessionId>/m<n>`: `n` counts the session's user messages from 1, in the order prompts arrive. */
  nextMessageId(): string {
    this.#messageCount += 1;
    return `${this.id}/m${this.#messageCount}`;
  }

  /** The index of the next turn, counting from 0. */
  nextTurnIndex(): number {
    return this.#turnCount++;
  }

  /** The index `k` of the next child agent (and its tool call), counting from 1. */
  nextChildIndex(): number {
    this.#childCount += 1;
    return this.#childCount;
  }

  /** Appends an entry to the session's log: sends `session.event` with the next `seq`. */
  emit<T extends KnownEventType>(type: T, data: EventData<T>): Promise<void> {
    // The generic pair (type, data) is one variant of the union; TypeScript cannot see it.
    const event = { type, seq: this.#seq++, time: Date.now(), data } as KnownSessionEvent;
    return this.#notifier.notifySessionEvent({ sessionId: this.id, event });
  }

  /** Sends `session.status`. */
  setStatus(status: SessionStatus): Promise<void> {
    return this.#notifier.notifySessionStatus({ sessionId: this.id, status });
  }

  /**
   * Queues a turn. On an idle session it starts at once (after the responses already being
   * written, so a prompt's response precedes its turn's frames); otherwise it waits its turn.
   * Ignored once the session stopped accepting turns.
   */
  enqueue(turn: QueuedTurn): void {
    if (!this.#isAcceptingTurns) return;
    this.#queue.push(turn);
    this.#draining ??= this.#drain();
  }

  /** Drops the queued turns and resolves once the running one, if any, has ended. */
  stopAcceptingTurns(): Promise<void> {
    this.#isAcceptingTurns = false;
    this.#queue.length = 0;
    return this.#draining ?? Promise.resolve();
  }

  async #drain(): Promise<void> {
    // The first turn is taken synchronously: a turn accepted on an idle session has started.
    for (let turn = this.#queue.shift(); turn; turn = this.#queue.shift()) {
      await afterPendingWrites();
      try {
        await turn();
      } catch (error) {
        this.#onTurnFailed(error, this);
      }
    }
    this.#draining = undefined;
  }
}

/** Every session of the runtime by id; sessions are created lazily on first use. */
export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();
  readonly #create: (id: string) => Session;

  constructor(create: (id: string) => Session) {
    this.#create = create;
  }

  /** The session with this id, created if it does not exist yet. */
  open(id: string): Session {
    let session = this.#sessions.get(id);
    if (!session) {
      session = this.#create(id);
      this.#sessions.set(id, session);
    }
    return session;
  }

  /** Stops every session from starting queued turns; resolves when the running ones ended. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.stopAcceptingTurns()));
  }
}
