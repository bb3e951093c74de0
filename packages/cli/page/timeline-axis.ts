// The timeline's time axis: ticks at round times (1, 2 or 5 × 10ⁿ ms apart), about eight across
// the view, drawn for the part of the track in view and a view's width either side (a track
// zoomed far in is thousands of views wide).
import { el } from './dom.js';
import type { TimeWindow } from './time-window.js';

/** About this many ticks per view's width. */
const TICKS = 8;

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

/** The axis lane for a view of `window` on a track spanning [0, extent] ms. */
export function renderAxis(window: TimeWindow, extent: number): HTMLElement {
  const axis = el('div', { class: 'tl-lane tl-axis' });
  const length = Math.max(window.end - window.start, 1e-6);
  const step = roundStep(length / TICKS);
  const first = Math.max(0, Math.ceil((window.start - length) / step - 1e-9));
  const last = Math.floor(Math.min(extent, window.end + length) / step + 1e-9);
  for (let i = first; i <= last; i++) {
    const ms = i * step;
    const tick = el('span', { class: 'tl-tick', 'data-ms': String(ms) }, tickLabel(ms, step));
    tick.style.left = `${(ms / extent) * 100}%`;
    if (i === 0) tick.classList.add('tl-tick-first');
    if (ms + step > extent) tick.classList.add('tl-tick-last');
    axis.append(tick);
  }
  axis.dataset['step'] = String(step);
  return axis;
}
