// What part of the trace's time the timeline shows: the newest activity (follow mode, the live
// page's default), the whole trace (fit), or a window a person chose by zooming or scrolling,
// which stays put as frames come.

/** A span of time in ms since the trace's start. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

export type ViewMode = 'follow' | 'fit' | TimeWindow;

/** The shortest window follow mode shows (a request of a millisecond stays readable). */
const MIN_FOLLOW_MS = 16;
/** Room left of the newest activity and right of the last frame, as a share of the window. */
const FOLLOW_MARGIN = 0.05;

/**
 * The window follow mode shows: from a little before the newest activity's start to a little
 * past the last frame. Its length is a power of two milliseconds, so it changes only when the
 * activity outgrows it (by doubling), and what is drawn grows rightwards in between.
 */
export function followWindow(activityStart: number | undefined, lastT: number): TimeWindow {
  const from = Math.min(activityStart ?? 0, lastT);
  const needed = Math.max((lastT - from) / (1 - 2 * FOLLOW_MARGIN), MIN_FOLLOW_MS);
  const length = 2 ** Math.ceil(Math.log2(needed));
  const start = Math.max(0, from - length * FOLLOW_MARGIN);
  return { start, end: start + length };
}

/**
 * `window` kept within [0, extent] and at least `minLength` long, moved rather than cut where
 * it sticks out.
 */
export function clampWindow(window: TimeWindow, extent: number, minLength: number): TimeWindow {
  const length = Math.min(Math.max(window.end - window.start, minLength), extent);
  const start = Math.max(0, Math.min(window.start, extent - length));
  return { start, end: start + length };
}
