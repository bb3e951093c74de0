import type {
  SessionEvent,
  SessionStatus,
  TurnAbortKind,
  UnknownSessionEvent,
} from '@dsh-sdk/protocol';
import type { Notifier } from './notifier.js';
import { TurnControl } from './turn-control.js';

/** The event types the runtime emits, each with its generated payload type. */
type KnownSessionEvent = Exclude<SessionEvent, UnknownSessionEvent>;
type KnownEventType = KnownSessionEvent['type'];
type EventData<T extends KnownEventType> = Extract<KnownSessionEvent, { type: T }>['data'];

/** A queued turn: runs once the session's previous turns have ended, with its interrupt switch. */
export type QueuedTurn = (control: TurnControl) => Promise<unknown>;

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
  /** The turn in progress: from the moment it is taken from the queue until it ended. */
  #current: TurnControl | undefined;
  #status: SessionStatus | undefined;
  /** Ids of the child sessions its turns started, closed with it. */
  readonly #children = new Set<string>();

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

  /** Sends `session.status`, unless the session already has that status (no second `running`). */
  setStatus(status: SessionStatus): Promise<void> {
    if (this.#status === status) return Promise.resolve();
    this.#status = status;
    return this.#notifier.notifySessionStatus({ sessionId: this.id, status });
  }

  /** Whether prompts wait behind the turn in progress. */
  get hasQueuedTurns(): boolean {
    return this.#queue.length > 0;
  }

  /** Makes `control` the session's turn in progress (a child's turn runs outside the queue). */
  attach(control: TurnControl): void {
    this.#current = control;
  }

  /** The turn of `control` ended. */
  detach(control: TurnControl): void {
    if (this.#current === control) this.#current = undefined;
  }

  /**
   * Interrupts the turn in progress (`abortKind`: why, the nested reason of its `turn/end`);
   * false when there is none. The queue is left as it is.
   */
  interrupt(abortKind: TurnAbortKind): boolean {
    const current = this.#current;
    if (!current) return false;
    current.interrupt(abortKind);
    return true;
  }

  /** Records a child session started by one of its turns. */
  addChild(childSessionId: string): void {
    this.#children.add(childSessionId);
  }

  /** The child sessions its turns started. */
  get children(): readonly string[] {
    return [...this.#children];
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

  /** `session/close`: drops the queued turns, interrupts the running one, resolves once it ended. */
  close(): Promise<void> {
    const stopped = this.stopAcceptingTurns();
    this.interrupt('disposed');
    return stopped;
  }

  async #drain(): Promise<void> {
    // The first turn is taken synchronously: a turn accepted on an idle session has started
    // (and can be interrupted before it wrote anything).
    for (let turn = this.#queue.shift(); turn; turn = this.#queue.shift()) {
      const control = new TurnControl();
      this.attach(control);
      await afterPendingWrites();
      try {
        await turn(control);
      } catch (error) {
        this.#onTurnFailed(error, this);
      }
      this.detach(control);
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

  /** The session with this id, if the runtime holds one. */
  find(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /**
   * Disposes a session and the child sessions its turns started: they leave the registry at once
   * (a later prompt creates a new session), then their running turns are interrupted and their
   * queues dropped. Resolves once every one of them stopped; false when there was no such session.
   */
  async close(id: string): Promise<boolean> {
    const session = this.#sessions.get(id);
    if (!session) return false;
    const closing: Promise<void>[] = [];
    const visit = (current: Session): void => {
      this.#sessions.delete(current.id);
      closing.push(current.close());
      for (const child of current.children) {
        const found = this.#sessions.get(child);
        if (found) visit(found);
      }
    };
    visit(session);
    await Promise.all(closing);
    return true;
  }

  /** Stops every session from starting queued turns; resolves when the running ones ended. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.stopAcceptingTurns()));
  }
}
