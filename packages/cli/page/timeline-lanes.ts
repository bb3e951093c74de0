// What the timeline draws for each lane: its label (name, turn count, closed), its track (spans,
// stacked requests, invalid frames, marks) and the legend saying what each look means. Positions
// are in percent of the track's time extent.
import { el, formatMs } from './dom.js';
import { laneName } from './model.js';
import type { Lane, Mark, MarkKind, Span, TraceModel } from './model.js';

const MARK_BUCKETS = 400;
/** A mark's width (styles.css `.tl-mark`). */
const MARK_WIDTH_PX = 3;
/** A span's minimum width (styles.css `.tl-span`). */
const SPAN_MIN_WIDTH_PX = 3;
/** A lane's height, and what each further sub-row of stacked requests adds (styles.css). */
export const LANE_HEIGHT_PX = 28;
export const SUB_ROW_PX = 22;
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
  ['sw-span sw-turn sw-unfinished', 'turn unfinished (the runtime exited)'],
  ['sw-span sw-step', 'step'],
  ['sw-span sw-tool', 'tool call'],
  ['sw-span sw-subagent', 'subagent'],
  ['sw-span sw-request sw-ok', 'request → response'],
  ['sw-invalid', 'invalid frame'],
  ...(Object.entries(MARK_NAMES) as [MarkKind, string][]).map(
    ([kind, name]) => [`sw-mark sw-mark-${kind}`, name] as const,
  ),
];

export function renderLabel(lane: Lane, depth: number): HTMLElement {
  const name = laneName(lane);
  const turns = lane.turns.size;
  const count = turns > 0 ? `${turns} turn${turns === 1 ? '' : 's'}` : '';
  const label = el(
    'div',
    {
      class: 'tl-label',
      'data-lane': lane.key,
      'data-session': lane.sessionId,
      'data-life': String(lane.life),
      title: name,
    },
    el('span', { class: 'tl-label-name' }, name),
    el(
      'span',
      { class: 'tl-label-meta' },
      lane.closed ? `closed${turns > 0 ? ` · ${turns}` : ''}` : count,
    ),
  );
  label.style.paddingLeft = `${6 + depth * 14}px`;
  if (depth > 0) label.classList.add('tl-child');
  if (lane.closed) {
    label.classList.add('tl-closed');
    label.dataset['closed'] = 'true';
  }
  return label;
}

/** A lane's track: its spans, invalid frames (bucketed) and marks, on a track spanning `extent` ms. */
export function renderLane(model: TraceModel, lane: Lane, extent: number): HTMLElement {
  const track = el('div', {
    class: 'tl-lane',
    'data-lane': lane.key,
    'data-session': lane.sessionId,
    'data-life': String(lane.life),
  });
  for (const span of lane.spans) track.append(renderSpan(span, model.lastT, extent));
  // Invalid frames, one mark per bucket of the axis so a damaged burst stays cheap to draw.
  const buckets = new Map<number, number[]>();
  for (const row of lane.invalidRows) {
    const t = model.rows[row]!.frame.t;
    const bucket = Math.floor((t / extent) * MARK_BUCKETS);
    const rows = buckets.get(bucket) ?? [];
    rows.push(row);
    buckets.set(bucket, rows);
  }
  for (const rows of buckets.values()) {
    const first = model.rows[rows[0]!]!;
    const what = first.findings.map((f) => f.reason).join(', ');
    const title = rows.length === 1 ? `invalid: ${what}` : `${rows.length} invalid frames`;
    const mark = el('div', { class: 'tl-invalid', 'data-row': String(first.index), title });
    mark.style.left = `${(first.frame.t / extent) * 100}%`;
    track.append(mark);
  }
  for (const mark of lane.marks) track.append(renderMark(mark, extent));
  return track;
}

function renderMark(mark: Mark, extent: number): HTMLElement {
  const node = el('div', {
    class: `tl-mark tl-mark-${mark.kind}`,
    'data-mark': mark.kind,
    title: `${MARK_NAMES[mark.kind]} · ${mark.label} · ${formatMs(mark.t)}`,
  });
  if (mark.row !== undefined) node.dataset['row'] = String(mark.row);
  // Its width taken from the left in proportion, so a mark at the end (the exit) stays inside.
  const fraction = Math.min(mark.t, extent) / extent;
  node.style.left = `calc(${fraction * 100}% - ${fraction * MARK_WIDTH_PX}px)`;
  return node;
}

function renderSpan(span: Span, lastT: number, extent: number): HTMLElement {
  const end = span.end ?? lastT;
  const length = end - span.start;
  const how =
    span.status === 'unfinished'
      ? `unfinished: the runtime exited after ${formatMs(length)}`
      : span.end === undefined
        ? 'open'
        : formatMs(length);
  const node = el('div', {
    class: `tl-span tl-${span.kind} tl-${span.status}`,
    'data-row': String(span.startRow),
    'data-kind': span.kind,
    'data-status': span.status,
    title: `${span.label} · ${how}`,
  });
  // As a mark: the minimum width taken from the left in proportion, so a short span at the end
  // stays inside.
  const fraction = span.start / extent;
  node.style.left = `calc(${fraction * 100}% - ${fraction * SPAN_MIN_WIDTH_PX}px)`;
  node.style.width = `${(Math.max(length, 0) / extent) * 100}%`;
  if (span.subRow > 0) node.style.top = `${3 + span.subRow * SUB_ROW_PX}px`;
  if (span.kind === 'turn' || span.kind === 'request') node.textContent = span.label;
  return node;
}

export function legend(): HTMLElement {
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
