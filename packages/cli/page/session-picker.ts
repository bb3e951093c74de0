// The live page's session picker: the root sessions seen so far and those prompted from here
// (before their first frame), plus a new session. A closed session is listed but cannot be
// picked (its life is over); a prompt with its id in the new-session box starts a new life.
import type { ViewerApp } from './app.js';
import { byId, el } from './dom.js';
import { CONNECTION_LANE } from './model.js';

/** The picker's value for "a new session", named in the box beside it. */
export const NEW_SESSION = '';

export class SessionPicker {
  readonly #app: ViewerApp;
  readonly #select = byId<HTMLSelectElement>('prompt-session');
  readonly #newSession = byId<HTMLInputElement>('prompt-new-session');
  /** Ids prompted from here whose new life has not shown yet, with the lane they had then. */
  readonly #pending = new Map<string, string | undefined>();
  readonly #onChange: () => void;
  #nextSuggestion = 1;

  /** `onChange`: the picked session changed (the page redraws its action buttons). Call
   * {@link render} once the page is ready for it. */
  constructor(app: ViewerApp, onChange: () => void) {
    this.#app = app;
    this.#onChange = onChange;
    document.addEventListener('dsh:sessions', () => this.render());
    this.#select.addEventListener('change', () => {
      this.#newSession.hidden = this.#select.value !== NEW_SESSION;
      onChange();
    });
    this.#newSession.addEventListener('input', () => (this.#newSession.dataset['edited'] = 'true'));
  }

  /** The session picked, or {@link NEW_SESSION}. */
  get value(): string {
    return this.#select.value;
  }

  /** The session a prompt goes to: the picked one, or the new one's id ('' when none given). */
  target(): string {
    return this.value === NEW_SESSION ? this.#newSession.value.trim() : this.value;
  }

  /** A prompt went to `sessionId`: it becomes the picked one at once. */
  prompted(sessionId: string): void {
    const lane = this.#app.model.currentLane(sessionId);
    if (!lane || lane.closing || lane.closed) this.#pending.set(sessionId, lane?.key);
    this.#newSession.dataset['edited'] = 'false';
    this.render();
    this.#select.value = sessionId;
    this.#newSession.hidden = true;
    this.#onChange();
  }

  /** The picked session was closed: pick a new one. */
  closed(sessionId: string): void {
    this.#pending.delete(sessionId);
    this.render();
    if (this.#select.value === sessionId) this.#pickNew();
  }

  render(): void {
    const { model } = this.#app;
    for (const [id, key] of this.#pending) {
      if (model.currentLane(id)?.key !== key) this.#pending.delete(id);
    }
    const ids = new Set(
      model
        .orderedLanes()
        .filter(({ lane, depth }) => depth === 0 && lane.key !== CONNECTION_LANE)
        .map(({ lane }) => lane.sessionId),
    );
    for (const id of this.#pending.keys()) ids.add(id);
    const options = [...ids].map((id) => {
      const over = model.currentLane(id)?.closed === true && !this.#pending.has(id);
      const option = el('option', { value: id }, over ? `${id} (closed)` : id);
      if (over) {
        option.disabled = true;
        option.dataset['closed'] = 'true';
      }
      return option;
    });
    const current = this.#select.value;
    this.#select.replaceChildren(el('option', { value: NEW_SESSION }, 'new session'), ...options);
    const still = options.find((o) => o.value === current && !o.disabled);
    if (still) this.#select.value = current;
    else this.#pickNew();
    this.#newSession.hidden = this.#select.value !== NEW_SESSION;
    this.#suggest();
    this.#onChange();
  }

  #pickNew(): void {
    this.#select.value = NEW_SESSION;
    this.#newSession.hidden = false;
    this.#suggest();
    this.#onChange();
  }

  /** Suggests `session-N`, the first N no session has used. */
  #suggest(): void {
    const used = (id: string): boolean =>
      this.#app.model.currentLane(id) !== undefined || this.#pending.has(id);
    while (used(`session-${this.#nextSuggestion}`)) this.#nextSuggestion += 1;
    if (this.#newSession.dataset['edited'] !== 'true') {
      this.#newSession.value = `session-${this.#nextSuggestion}`;
    }
  }
}
