// A list that renders only the rows in view: a spacer as tall as every row, and a small pool of
// row elements moved and refilled as the list scrolls. Opening or scrolling 100,000 rows costs
// what a screenful costs.
import { el } from './dom.js';

export interface VirtualListOptions {
  readonly rowHeight: number;
  /** Fills a pooled row element for the item at `position` of the current items. */
  readonly render: (row: HTMLElement, item: number, position: number) => void;
  readonly onActivate: (item: number) => void;
}

const OVERSCAN = 8;

/** How long the list's own rendering took: what scrolling costs the page's script. */
export interface RenderStats {
  count: number;
  totalMs: number;
  maxMs: number;
}

export class VirtualList {
  readonly renderStats: RenderStats = { count: 0, totalMs: 0, maxMs: 0 };
  readonly #root: HTMLElement;
  readonly #spacer: HTMLElement;
  readonly #options: VirtualListOptions;
  readonly #pool: HTMLElement[] = [];
  #items: readonly number[] = [];
  #frame = 0;
  /** Whether the view was at the end when last scrolled (by a person or by scrollToEnd). */
  #following = false;

  constructor(root: HTMLElement, options: VirtualListOptions) {
    this.#root = root;
    this.#options = options;
    this.#spacer = el('div', { class: 'vl-spacer' });
    root.append(this.#spacer);
    root.addEventListener(
      'scroll',
      () => {
        this.#following = this.isAtEnd();
        this.#schedule();
      },
      { passive: true },
    );
    root.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.vl-row');
      if (row?.dataset['item'] !== undefined) options.onActivate(Number(row.dataset['item']));
    });
    // A list at its end stays there when the layout around it takes room (a banner, a lane).
    new ResizeObserver(() => {
      if (this.#following) root.scrollTop = root.scrollHeight;
      this.#schedule();
    }).observe(root);
  }

  /** The items shown, in order (indices into the caller's rows). */
  get items(): readonly number[] {
    return this.#items;
  }

  setItems(items: readonly number[]): void {
    this.#items = items;
    const height = items.length * this.#options.rowHeight;
    this.#spacer.style.height = `${height}px`;
    // A shorter list than the view's position: come back into range before drawing.
    const max = Math.max(0, height - this.#root.clientHeight);
    if (this.#root.scrollTop > max) this.#root.scrollTop = max;
    this.renderNow();
  }

  /** True when the view shows the last row (a live list keeps following then). */
  isAtEnd(): boolean {
    const root = this.#root;
    return root.scrollTop + root.clientHeight >= root.scrollHeight - this.#options.rowHeight * 2;
  }

  /**
   * Whether the list keeps to its end: it was there when last scrolled (by a person or by
   * {@link scrollToEnd}). The layout taking room from the list (a banner, a new lane) leaves this
   * as it was, and the end in view.
   */
  isFollowing(): boolean {
    return this.#following;
  }

  scrollToEnd(): void {
    this.#following = true;
    this.#root.scrollTop = this.#root.scrollHeight;
    this.renderNow();
  }

  /** Brings the item at `position` into view. */
  reveal(position: number): void {
    const { rowHeight } = this.#options;
    const top = position * rowHeight;
    const root = this.#root;
    if (top < root.scrollTop) root.scrollTop = top;
    else if (top + rowHeight > root.scrollTop + root.clientHeight) {
      root.scrollTop = top + rowHeight - root.clientHeight;
    }
    this.renderNow();
  }

  /** Redraws the rows in view at once (after a selection change or new data). */
  renderNow(): void {
    const started = performance.now();
    this.#render();
    const ms = performance.now() - started;
    this.renderStats.count += 1;
    this.renderStats.totalMs += ms;
    this.renderStats.maxMs = Math.max(this.renderStats.maxMs, ms);
  }

  #render(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    const { rowHeight, render } = this.#options;
    const root = this.#root;
    const first = Math.max(0, Math.floor(root.scrollTop / rowHeight) - OVERSCAN);
    const visible = Math.ceil(root.clientHeight / rowHeight) + 2 * OVERSCAN;
    const last = Math.min(this.#items.length, first + visible);
    while (this.#pool.length < visible) {
      const row = el('div', { class: 'vl-row', role: 'row' });
      row.style.height = `${rowHeight}px`;
      this.#pool.push(row);
      root.append(row);
    }
    for (let i = 0; i < this.#pool.length; i++) {
      const row = this.#pool[i]!;
      const position = first + i;
      if (position >= last) {
        row.hidden = true;
        continue;
      }
      const item = this.#items[position]!;
      row.hidden = false;
      row.style.transform = `translateY(${position * rowHeight}px)`;
      row.dataset['item'] = String(item);
      row.dataset['position'] = String(position);
      render(row, item, position);
    }
  }

  #schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.renderNow();
    });
  }
}
