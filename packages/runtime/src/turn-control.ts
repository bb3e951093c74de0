// How a running turn learns that it was interrupted (`session/interrupt`, `session/close`): an
// abort flag it checks before every frame it would write, and pauses that end early.
import type { TurnAbortKind } from '@dsh-sdk/protocol';

/**
 * Thrown inside a turn once it was interrupted; the turn then writes its closing frames, with
 * `abortKind` as the nested reason of its `turn/end`.
 */
export class TurnInterruptedError extends Error {
  override readonly name = 'TurnInterruptedError';
  readonly abortKind: TurnAbortKind;

  constructor(abortKind: TurnAbortKind) {
    super('the turn was interrupted');
    this.abortKind = abortKind;
  }
}

/**
 * The interrupt switch of one turn; a child agent's turn is interrupted with its parent's, and
 * then says so (`parent`).
 */
export class TurnControl {
  readonly #controller = new AbortController();
  /** Why it was interrupted: the first cause wins (a close after an interrupt changes nothing). */
  #abortKind: TurnAbortKind | undefined;

  constructor(parent?: TurnControl) {
    if (!parent) return;
    if (parent.isInterrupted) this.interrupt('parent');
    else parent.signal.addEventListener('abort', () => this.interrupt('parent'), { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get isInterrupted(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * Synchronous: once it returns, the turn writes no frame of its reply any more. `abortKind`:
   * `user` for `session/interrupt`, `disposed` for `session/close`.
   */
  interrupt(abortKind: TurnAbortKind): void {
    if (this.#abortKind !== undefined) return;
    this.#abortKind = abortKind;
    this.#controller.abort();
  }

  /** Called right before writing a frame of the reply (no `await` between the two). */
  throwIfInterrupted(): void {
    if (this.#abortKind !== undefined) throw new TurnInterruptedError(this.#abortKind);
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
