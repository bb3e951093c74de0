// The viewer's words and menus: a row's method cell, a lane in the session menu, the runtime's
// end in the stats line, and filling a filter menu.
import { el } from './dom.js';
import { CONNECTION_LANE, describeExit, laneName } from './model.js';
import type { Lane, Row, TraceModel } from './model.js';

/** A filter menu's value for "any". */
export const ANY = '';

export function methodCell(row: Row): string {
  const { frame } = row;
  const id = frame.id === undefined ? '' : ` #${JSON.stringify(frame.id)}`;
  if (frame.kind === 'result' || frame.kind === 'error')
    return `${frame.kind}${id} ${frame.method ?? ''}`;
  if (row.eventType !== undefined) return row.eventType;
  return `${frame.method ?? frame.kind ?? '—'}${id}`;
}

/** A lane in the session menu: `s1`, `s1 · life 2 (closed)`, `(connection)`. */
export function sessionLabel(lane: Lane): string {
  if (lane.key === CONNECTION_LANE) return '(connection)';
  return `${laneName(lane)}${lane.closed ? ' (closed)' : ''}`;
}

/** The runtime's end in the stats line: `exit 3`, `exit SIGKILL`, `not started`. */
export function exitWords(exit: NonNullable<TraceModel['exit']>): string {
  if (exit.spawnError !== undefined) return 'not started';
  const how = exit.exitCode ?? exit.signal;
  return how === null ? `runtime ${describeExit(exit)}` : `exit ${how}`;
}

/** Fills a filter menu: "every …" first, then the choices; off while there are none. */
export function fillSelect(
  select: HTMLSelectElement,
  choices: readonly (string | { value: string; label: string })[],
  anyLabel: string,
): void {
  const current = select.value;
  const options = [el('option', { value: ANY }, anyLabel)];
  for (const choice of choices) {
    const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
    options.push(el('option', { value }, label));
  }
  select.replaceChildren(...options);
  select.value = current;
  select.disabled = choices.length === 0;
}
