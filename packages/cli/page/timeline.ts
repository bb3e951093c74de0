// The timeline: one lane per session life (children nested under their parent), turns, steps,
// tool calls, subagents and the connection's requests (stacked where they overlap) as spans on a
// shared time axis with round ticks, prompts, interrupts, closes and the runtime's exit as marks,
// invalid frames as red marks, and a legend. Spans are positioned in percent of the track's time
// extent, so zooming only widens the track and the browser does the rest. What is in view follows
// the newest activity (live), shows the whole trace (fit), or stays where a person put it.
import { el } from './dom.js';
import type { TraceModel } from './model.js';
import { clampWindow, followWindow } from './time-window.js';
import type { TimeWindow, ViewMode } from './time-window.js';
import { renderAxis } from './timeline-axis.js';
import { LANE_HEIGHT_PX, legend, renderLabel, renderLane, SUB_ROW_PX } from './timeline-lanes.js';

export interface TimelineHandlers {
  /** A span or a mark was clicked: the row it starts at. */
  readonly onRow: (row: number) => void;
  /** A lane's label was clicked: its key. */
  readonly onLane: (laneKey: string) => void;
}

/** The track is at most this many times wider than the view (browsers lay out ~33M px). */
const MAX_ZOOM = 16_384;
/** A scroll this soon after a person's wheel or key is theirs. */
const PERSON_SCROLL_MS = 500;
/** Focusing on a lane zooms in this far at most. */
const FOCUS_MAX_ZOOM = 256;

export class TimelineView {
  readonly #model: TraceModel;
  readonly #labels: HTMLElement;
  readonly #tracks: HTMLElement;
  readonly #inner: HTMLElement;
  readonly #cursor: HTMLElement;
  readonly #followButton: HTMLButtonElement;
  #mode: ViewMode;
  /** The time the track spans, in ms: the trace's, or more when follow mode looks ahead. */
  #extent = 0.001;
  #cursorT: number | undefined;
  #rendered = { version: -1, extent: -1 };
  /** The scroll position last set here: a scroll event elsewhere is a person's. */
  #ownScrollLeft: number | undefined;
  #axisFrame = 0;
  readonly #person: PersonScrolling;

  /** `live`: the trace grows, and follow mode (on at first) keeps its newest activity in view. */
  constructor(root: HTMLElement, model: TraceModel, handlers: TimelineHandlers, live: boolean) {
    this.#model = model;
    this.#mode = live ? 'follow' : 'fit';
    this.#labels = el('div', { class: 'tl-labels' });
    this.#inner = el('div', { class: 'tl-inner' }, el('div', { class: 'tl-lane tl-axis' }));
    this.#tracks = el('div', { class: 'tl-tracks' }, this.#inner);
    this.#cursor = el('div', { class: 'tl-cursor', hidden: '' });
    const button = (attrs: Record<string, string>, text: string): HTMLButtonElement =>
      el('button', { type: 'button', ...attrs }, text);
    this.#followButton = button(
      { title: 'keep the newest activity in view', 'data-follow': '', 'aria-pressed': 'false' },
      'follow',
    );
    this.#followButton.hidden = !live;
    const zoomBar = el(
      'div',
      { class: 'tl-zoom' },
      this.#followButton,
      button({ title: 'zoom out', 'data-zoom': '-1' }, '−'),
      button({ title: 'zoom in', 'data-zoom': '1' }, '+'),
      button({ title: 'fit the whole trace', 'data-fit': '' }, 'fit'),
    );
    root.append(
      el('div', { class: 'tl-head' }, legend(), zoomBar),
      el('div', { class: 'tl-body' }, this.#labels, this.#tracks),
    );
    zoomBar.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('button');
      if (target?.dataset['fit'] !== undefined) this.fit();
      if (target?.dataset['follow'] !== undefined) this.follow();
      const step = target?.dataset['zoom'];
      if (step !== undefined) this.#zoomBy(Number(step));
    });
    this.#tracks.addEventListener('wheel', (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      this.#zoomBy(event.deltaY < 0 ? 1 : -1);
    });
    this.#person = new PersonScrolling(this.#tracks);
    this.#tracks.addEventListener('scroll', () => this.#onScroll(), { passive: true });
    // A narrower or wider view keeps its window.
    new ResizeObserver(() => this.#applyView()).observe(this.#tracks);
    this.#inner.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-row]');
      if (target) handlers.onRow(Number(target.dataset['row']));
    });
    this.#labels.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-lane]');
      if (!target) return;
      const key = target.dataset['lane'] ?? '';
      this.#focusLane(key);
      handlers.onLane(key);
    });
  }

  /** Whether follow mode is on. */
  get following(): boolean {
    return this.#mode === 'follow';
  }

  /** Redraws what changed since the last call, and keeps the view where its mode says. */
  render(): void {
    this.#applyView();
  }

  /** Shows a vertical line at time `t` (the selected frame). */
  setCursor(t: number | undefined): void {
    this.#cursorT = t;
    this.#placeCursor();
  }

  /** Shows the whole trace, start to end, in the view's width (and keeps doing so as it grows). */
  fit(): void {
    this.#mode = 'fit';
    this.#applyView();
  }

  /** Keeps the newest activity in view. */
  follow(): void {
    this.#mode = 'follow';
    this.#applyView();
  }

  /**
   * Fits the time range [start, end] (ms) into the view, e.g. one session's activity; a range
   * shorter than 1/256 of the trace (a turn of no time) is shown that long.
   */
  focusRange(start: number, end: number): void {
    const extent = Math.max(this.#model.lastT, this.#extent, 0.001);
    const length = Math.max(end - start, extent / FOCUS_MAX_ZOOM);
    this.#setWindow({ start: start - length * 0.05, end: start + length * 1.05 });
  }

  /** What the view shows now: the mode's window. */
  #window(): TimeWindow {
    const lastT = Math.max(this.#model.lastT, 0.001);
    if (this.#mode === 'fit') return { start: 0, end: lastT };
    if (this.#mode === 'follow') return followWindow(this.#model.activityStart(), lastT);
    return this.#mode;
  }

  #setWindow(window: TimeWindow): void {
    const extent = Math.max(this.#model.lastT, this.#extent, 0.001);
    this.#mode = clampWindow(window, extent, extent / MAX_ZOOM);
    this.#applyView();
  }

  /** Zooms in (1) or out (-1) twofold around the selected frame, or else the view's middle. */
  #zoomBy(step: number): void {
    const { start, end } = this.#visibleWindow();
    const centre = this.#cursorT ?? (start + end) / 2;
    const half = (end - start) / 2 / 2 ** step;
    this.#setWindow({ start: centre - half, end: centre + half });
  }

  /** The window the scroll position shows. */
  #visibleWindow(): TimeWindow {
    const tracks = this.#tracks;
    const width = Math.max(tracks.scrollWidth, 1);
    const start = (tracks.scrollLeft / width) * this.#extent;
    return { start, end: start + (tracks.clientWidth / width) * this.#extent };
  }

  #onScroll(): void {
    const moved = Math.abs(this.#tracks.scrollLeft - (this.#ownScrollLeft ?? -2)) > 1;
    if (moved && this.#person.scrolling()) {
      // A person scrolled: the view stays where they put it.
      this.#mode = this.#visibleWindow();
      this.#followButton.setAttribute('aria-pressed', 'false');
    } else if (moved) {
      // The layout moved it (the track narrowed, say): back to where the mode says.
      this.#applyView();
      return;
    }
    if (this.#axisFrame !== 0) return;
    this.#axisFrame = requestAnimationFrame(() => {
      this.#axisFrame = 0;
      this.#drawAxis(this.#visibleWindow());
    });
  }

  /** Sizes and scrolls the track to the mode's window, redrawing the lanes if they changed. */
  #applyView(): void {
    const window = this.#window();
    const extent = Math.max(this.#model.lastT, window.end, 0.001);
    const { version } = this.#model;
    if (this.#rendered.version !== version || this.#rendered.extent !== extent) {
      this.#rendered = { version, extent };
      this.#extent = extent;
      this.#drawLanes();
    }
    const zoom = Math.min(MAX_ZOOM, Math.max(1, extent / (window.end - window.start)));
    this.#inner.style.width = `${zoom * 100}%`;
    const tracks = this.#tracks;
    tracks.scrollLeft = (window.start / extent) * tracks.scrollWidth;
    this.#ownScrollLeft = tracks.scrollLeft;
    this.#drawAxis(window);
    this.#followButton.setAttribute('aria-pressed', String(this.#mode === 'follow'));
  }

  #drawAxis(window: TimeWindow): void {
    this.#inner.firstElementChild!.replaceWith(renderAxis(window, this.#extent));
  }

  #drawLanes(): void {
    const labels: HTMLElement[] = [el('div', { class: 'tl-label tl-axis-label' }, 'time')];
    const lanes: HTMLElement[] = [this.#inner.firstElementChild as HTMLElement];
    for (const { lane, depth } of this.#model.orderedLanes()) {
      const height = `${LANE_HEIGHT_PX + (lane.subRows.count - 1) * SUB_ROW_PX}px`;
      const label = renderLabel(lane, depth);
      const track = renderLane(this.#model, lane, this.#extent);
      label.style.height = height;
      track.style.height = height;
      labels.push(label);
      lanes.push(track);
    }
    this.#labels.replaceChildren(...labels);
    this.#inner.replaceChildren(...lanes, this.#cursor);
    this.#placeCursor();
  }

  #placeCursor(): void {
    if (this.#cursorT === undefined) {
      this.#cursor.hidden = true;
      return;
    }
    this.#cursor.hidden = false;
    this.#cursor.style.left = `${(this.#cursorT / this.#extent) * 100}%`;
  }

  /** Zooms the timeline onto a lane's spans and marks (its children's included). */
  #focusLane(key: string): void {
    let start = Infinity;
    let end = -Infinity;
    for (const k of this.#model.subtree(key)) {
      const lane = this.#model.lanes.get(k);
      for (const span of lane?.spans ?? []) {
        start = Math.min(start, span.start);
        end = Math.max(end, span.end ?? this.#model.lastT);
      }
      for (const mark of lane?.marks ?? []) {
        start = Math.min(start, mark.t);
        end = Math.max(end, mark.t);
      }
    }
    if (start <= end) this.focusRange(start, end);
  }
}

/**
 * Whether a scroll of `element` is a person's: the wheel, a key, or the scrollbar dragged just
 * before it. Scrolls the page makes (a layout change clamping the position) are not.
 */
class PersonScrolling {
  #inputAt = -Infinity;
  #dragging = false;

  constructor(element: HTMLElement) {
    const now = (): void => void (this.#inputAt = performance.now());
    element.addEventListener('wheel', now, { passive: true });
    element.addEventListener('keydown', now);
    element.addEventListener('pointerdown', () => (this.#dragging = true));
    for (const type of ['pointerup', 'pointercancel']) {
      window.addEventListener(type, () => {
        if (this.#dragging) now();
        this.#dragging = false;
      });
    }
  }

  scrolling(): boolean {
    return this.#dragging || performance.now() - this.#inputAt < PERSON_SCROLL_MS;
  }
}
