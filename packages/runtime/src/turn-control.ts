// How a running turn learns that it was interrupted (`session/interrupt`, `session/close`): an
// abort flag it checks before every frame it would write, and pauses that end early.

/** Thrown inside a turn once it was interrupted; the turn then writes its closing frames. */
export class TurnInterruptedError extends Error {
  override readonly name = 'TurnInterruptedError';

  constructor() {
    super('the turn was interrupted');
  }
}

/** The interrupt switch of one turn; a child agent's turn is interrupted with its parent's. */
export class TurnControl {
  readonly #controller = new AbortController();

  constructor(parent?: TurnControl) {
    if (!parent) return;
    if (parent.isInterrupted) this.interrupt();
    else parent.signal.addEventListener('abort', () => this.interrupt(), { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get isInterrupted(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Synchronous: once it returns, the turn writes no frame of its reply any more. */
  interrupt(): void {
    this.#controller.abort();
  }

  /** Called right before writing a frame of the reply (no `await` between the two). */
  throwIfInterrupted(): void {
    if (this.isInterrupted) throw new TurnInterruptedError();
  }

  /** Waits `ms`, or until the turn is interrupted, whichever comes first. */
  pause(ms: number): Promise<void> {
    if (this.isInterrupted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }
}
