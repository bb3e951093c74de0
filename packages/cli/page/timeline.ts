// The timeline: one lane per session (children nested under their parent), turns, steps, tool
// calls, subagents and the connection's requests as spans on a shared time axis with round ticks,
// prompts, interrupts, closes and the runtime's exit as marks, invalid frames as red marks, and a
// legend. Spans are positioned in percent of the trace's duration, so zooming only widens the
// track and the browser does the rest.
import { el, formatMs } from './dom.js';
import { CONNECTION_LANE } from './model.js';
import type { Lane, Mark, MarkKind, Span, TraceModel } from './model.js';

export interface TimelineHandlers {
  /** A span or a mark was clicked: the row it starts at. */
  readonly onRow: (row: number) => void;
  /** A lane's label was clicked. */
  readonly onLane: (sessionId: string) => void;
}

const MARK_BUCKETS = 400;
/** A mark's width (styles.css `.tl-mark`). */
const MARK_WIDTH_PX = 3;
/** A span's minimum width (styles.css `.tl-span`). */
const SPAN_MIN_WIDTH_PX = 3;
/** About this many ticks per view's width. */
const TICKS = 8;
const MAX_ZOOM = 256;
const MAX_TICKS = 1024;

const MARK_NAMES: Readonly<Record<MarkKind, string>> = {
  prompt: 'prompt',
  interrupt: 'interrupt',
  close: 'close',
  exit: 'runtime exit',
};

/**
 * What the colours and shapes mean: [classes of the swatch, words]. A swatch's `sw-` classes are
 * styled with the lanes' `tl-` ones, so it looks the same without matching the lanes' selectors.
 */
const LEGEND: readonly (readonly [string, string])[] = [
  ['sw-span sw-turn sw-ok', 'turn completed'],
  ['sw-span sw-turn sw-other', 'turn aborted / other end'],
  ['sw-span sw-turn sw-error', 'turn failed'],
  ['sw-span sw-turn sw-open', 'turn running'],
  ['sw-span sw-step', 'step'],
  ['sw-span sw-tool', 'tool call'],
  ['sw-span sw-subagent', 'subagent'],
  ['sw-span sw-request sw-ok', 'request → response'],
  ['sw-invalid', 'invalid frame'],
  ...(Object.entries(MARK_NAMES) as [MarkKind, string][]).map(
    ([kind, name]) => [`sw-mark sw-mark-${kind}`, name] as const,
  ),
];

/** The round step (1, 2 or 5 × 10ⁿ ms) nearest above `rough`. */
export function roundStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1e-6)));
  for (const factor of [1, 2, 5, 10]) if (power * factor >= rough) return power * factor;
  return power * 10;
}

/** A tick's label, with as many decimals as its step needs. */
function tickLabel(ms: number, step: number): string {
  const inSeconds = step >= 1000;
  const value = inSeconds ? ms / 1000 : ms;
  const unitStep = inSeconds ? step / 1000 : step;
  const decimals = Math.max(0, -Math.floor(Math.log10(unitStep) + 1e-9));
  return `${value.toFixed(decimals)} ${inSeconds ? 's' : 'ms'}`;
}

export class TimelineView {
  readonly #model: TraceModel;
  readonly #handlers: TimelineHandlers;
  readonly #labels: HTMLElement;
  readonly #tracks: HTMLElement;
  readonly #inner: HTMLElement;
  readonly #cursor: HTMLElement;
  /** How many times the track is wider than the view. */
  #zoom = 1;
  #cursorT: number | undefined;
  #renderedVersion = -1;

  constructor(root: HTMLElement, model: TraceModel, handlers: TimelineHandlers) {
    this.#model = model;
    this.#handlers = handlers;
    this.#labels = el('div', { class: 'tl-labels' });
    this.#inner = el('div', { class: 'tl-inner' });
    this.#tracks = el('div', { class: 'tl-tracks' }, this.#inner);
    this.#cursor = el('div', { class: 'tl-cursor', hidden: '' });
    const zoomIn = el('button', { type: 'button', title: 'zoom in', 'data-zoom': '1' }, '+');
    const zoomOut = el('button', { type: 'button', title: 'zoom out', 'data-zoom': '-1' }, '−');
    const fit = el(
      'button',
      { type: 'button', title: 'fit the whole trace', 'data-fit': '' },
      'fit',
    );
    const zoomBar = el('div', { class: 'tl-zoom' }, zoomOut, zoomIn, fit);
    root.append(
      el('div', { class: 'tl-head' }, legend(), zoomBar),
      el('div', { class: 'tl-body' }, this.#labels, this.#tracks),
    );
    zoomBar.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('button');
      if (button?.dataset['fit'] !== undefined) this.fit();
      const step = button?.dataset['zoom'];
      if (step !== undefined) this.#setZoom(this.#zoom * 2 ** Number(step));
    });
    this.#tracks.addEventListener('wheel', (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      this.#setZoom(this.#zoom * (event.deltaY < 0 ? 2 : 0.5));
    });
    this.#inner.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-row]');
      if (target) handlers.onRow(Number(target.dataset['row']));
    });
    this.#labels.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-session]');
      if (!target) return;
      const sessionId = target.dataset['session'] ?? '';
      this.#focusLane(sessionId);
      handlers.onLane(sessionId);
    });
  }

  /** Redraws if the model changed since the last render. */
  render(): void {
    if (this.#renderedVersion === this.#model.version) return;
    this.#renderedVersion = this.#model.version;
    const duration = Math.max(this.#model.lastT, 0.001);
    const labels: HTMLElement[] = [el('div', { class: 'tl-label tl-axis-label' }, 'time')];
    const lanes: HTMLElement[] = [this.#axis(duration)];
    for (const { lane, depth } of this.#model.orderedLanes()) {
      labels.push(this.#label(lane, depth));
      lanes.push(this.#lane(lane, duration));
    }
    this.#labels.replaceChildren(...labels);
    this.#inner.replaceChildren(...lanes, this.#cursor);
    this.#placeCursor();
  }

  /** Shows a vertical line at time `t` (the selected frame). */
  setCursor(t: number | undefined): void {
    this.#cursorT = t;
    this.#placeCursor();
  }

  #placeCursor(): void {
    if (this.#cursorT === undefined) {
      this.#cursor.hidden = true;
      return;
    }
    const duration = Math.max(this.#model.lastT, 0.001);
    this.#cursor.hidden = false;
    this.#cursor.style.left = `${(this.#cursorT / duration) * 100}%`;
  }

  /** Zooms around the selected frame (or else the middle of the view), which ends up centred. */
  #setZoom(factor: number): void {
    const tracks = this.#tracks;
    const duration = Math.max(this.#model.lastT, 0.001);
    const focus =
      this.#cursorT !== undefined
        ? this.#cursorT / duration
        : (tracks.scrollLeft + tracks.clientWidth / 2) / Math.max(tracks.scrollWidth, 1);
    this.#applyZoom(factor);
    tracks.scrollLeft = focus * tracks.scrollWidth - tracks.clientWidth / 2;
  }

  /** Shows the whole trace, start to end, in the view's width. */
  fit(): void {
    this.#applyZoom(1);
    this.#tracks.scrollLeft = 0;
  }

  /** Fits the time range [start, end] (ms) into the view, e.g. one session's activity. */
  focusRange(start: number, end: number): void {
    const duration = Math.max(this.#model.lastT, 0.001);
    const length = Math.max(end - start, duration / MAX_ZOOM);
    this.#applyZoom((duration / length) * 0.9);
    const tracks = this.#tracks;
    tracks.scrollLeft = ((start - length * 0.05) / duration) * tracks.scrollWidth;
  }

  #applyZoom(factor: number): void {
    this.#zoom = Math.max(1, Math.min(MAX_ZOOM, factor));
    this.#inner.style.width = `${this.#zoom * 100}%`;
    this.#inner.firstElementChild?.replaceWith(this.#axis(Math.max(this.#model.lastT, 0.001)));
  }

  /** Zooms the timeline onto a lane's spans and marks (its children's included). */
  #focusLane(sessionId: string): void {
    let start = Infinity;
    let end = -Infinity;
    for (const id of this.#model.subtree(sessionId)) {
      const lane = this.#model.lanes.get(id);
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

  /** Ticks at round times (0, 50, 100 ms…), about {@link TICKS} per view's width. */
  #axis(duration: number): HTMLElement {
    const axis = el('div', { class: 'tl-lane tl-axis' });
    const step = roundStep(Math.max(duration / (TICKS * this.#zoom), duration / MAX_TICKS));
    for (let i = 0; i * step <= duration; i++) {
      const ms = i * step;
      const tick = el('span', { class: 'tl-tick', 'data-ms': String(ms) }, tickLabel(ms, step));
      tick.style.left = `${(ms / duration) * 100}%`;
      axis.append(tick);
    }
    axis.dataset['step'] = String(step);
    return axis;
  }

  #label(lane: Lane, depth: number): HTMLElement {
    const name = lane.id === CONNECTION_LANE ? 'connection' : lane.id;
    const turns = lane.turns.size;
    const label = el(
      'div',
      { class: 'tl-label', 'data-session': lane.id, title: name },
      el('span', { class: 'tl-label-name' }, name),
      el(
        'span',
        { class: 'tl-label-meta' },
        turns > 0 ? `${turns} turn${turns === 1 ? '' : 's'}` : '',
      ),
    );
    label.style.paddingLeft = `${6 + depth * 14}px`;
    if (depth > 0) label.classList.add('tl-child');
    if (lane.closed) {
      label.classList.add('tl-closed');
      label.dataset['closed'] = 'true';
      label.lastElementChild!.textContent = `closed${turns > 0 ? ` · ${turns}` : ''}`;
    }
    return label;
  }

  #lane(lane: Lane, duration: number): HTMLElement {
    const track = el('div', { class: 'tl-lane', 'data-session': lane.id });
    for (const span of lane.spans) track.append(this.#span(span, duration));
    // Invalid frames, one mark per bucket of the axis so a damaged burst stays cheap to draw.
    const buckets = new Map<number, number[]>();
    for (const row of lane.invalidRows) {
      const t = this.#model.rows[row]!.frame.t;
      const bucket = Math.floor((t / duration) * MARK_BUCKETS);
      const rows = buckets.get(bucket) ?? [];
      rows.push(row);
      buckets.set(bucket, rows);
    }
    for (const rows of buckets.values()) {
      const first = this.#model.rows[rows[0]!]!;
      const what = first.findings.map((f) => f.reason).join(', ');
      const title = rows.length === 1 ? `invalid: ${what}` : `${rows.length} invalid frames`;
      const mark = el('div', { class: 'tl-invalid', 'data-row': String(first.index), title });
      mark.style.left = `${(first.frame.t / duration) * 100}%`;
      track.append(mark);
    }
    for (const mark of lane.marks) track.append(this.#mark(mark, duration));
    return track;
  }

  #mark(mark: Mark, duration: number): HTMLElement {
    const node = el('div', {
      class: `tl-mark tl-mark-${mark.kind}`,
      'data-mark': mark.kind,
      title: `${MARK_NAMES[mark.kind]} · ${mark.label} · ${formatMs(mark.t)}`,
    });
    if (mark.row !== undefined) node.dataset['row'] = String(mark.row);
    // Its width taken from the left in proportion, so a mark at the end (the exit) stays inside.
    const fraction = Math.min(mark.t, duration) / duration;
    node.style.left = `calc(${fraction * 100}% - ${fraction * MARK_WIDTH_PX}px)`;
    return node;
  }

  #span(span: Span, duration: number): HTMLElement {
    const end = span.end ?? this.#model.lastT;
    const length = end - span.start;
    const title = `${span.label} · ${span.end === undefined ? 'open' : formatMs(length)}`;
    const node = el('div', {
      class: `tl-span tl-${span.kind} tl-${span.status}`,
      'data-row': String(span.startRow),
      'data-kind': span.kind,
      title,
    });
    // As a mark: the minimum width taken from the left in proportion, so a short span at the end
    // stays inside.
    const fraction = span.start / duration;
    node.style.left = `calc(${fraction * 100}% - ${fraction * SPAN_MIN_WIDTH_PX}px)`;
    node.style.width = `${(Math.max(length, 0) / duration) * 100}%`;
    if (span.kind === 'turn' || span.kind === 'request') {
      node.textContent = span.label;
    }
    return node;
  }
}

function legend(): HTMLElement {
  const items = LEGEND.map(([swatch, words]) =>
    el(
      'span',
      { class: 'tl-legend-item' },
      el('span', { class: `tl-swatch ${swatch}`, 'aria-hidden': 'true' }),
      words,
    ),
  );
  return el('div', { class: 'tl-legend', 'aria-label': 'legend' }, ...items);
}
