// The IDL's `sequences` as ordering checks. A sequence's top-level notification steps, in order,
// become markers (a method, an event type, a status); on one session's traffic the first
// occurrence of each marker that occurs must come after the first occurrence of the markers
// before it, and a marker's `values` must hold on that occurrence. What is not checked, because
// the sequences do not state an order for it: `opt` and `alt` blocks, requests, and the place
// of a response among notifications (WIRE.md lets a prompt's answer and receipt come in either
// order, and an interrupt's answer may come before or after the turn's closing frames).
import { loadIdl } from '../idl-data.js';
import type { JsonObject, ServerLine } from './server-line.js';
import { paramsOf } from './turns.js';

export interface Marker {
  readonly method: string;
  readonly event?: string;
  /** Dotted paths into the params (the event's data, for one event) and their values. */
  readonly values: readonly (readonly [string, unknown])[];
  readonly label: string;
}

export interface SequenceOrder {
  readonly name: string;
  readonly title: string;
  readonly markers: readonly Marker[];
}

interface RawStep {
  readonly notification?: string;
  readonly event?: string;
  readonly events?: readonly string[];
  readonly values?: Readonly<Record<string, unknown>>;
}

function markersOf(step: RawStep): Marker[] {
  const method = step.notification;
  if (method === undefined) return [];
  const values = Object.entries(step.values ?? {});
  const events = step.events ?? (step.event === undefined ? [] : [step.event]);
  if (events.length === 0) {
    const label = `${method}${values.map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('')}`;
    return [{ method, values, label }];
  }
  return events.map((event) => ({
    method,
    event,
    values: events.length === 1 ? values : [],
    label: `${event}${events.length === 1 ? values.map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('') : ''}`,
  }));
}

let orders: Map<string, SequenceOrder> | undefined;

/** Every sequence of the IDL, by name, as markers. */
export function sequenceOrders(): Map<string, SequenceOrder> {
  if (orders) return orders;
  const sequences = (loadIdl()['sequences'] ?? []) as {
    name: string;
    title: string;
    steps: RawStep[];
  }[];
  orders = new Map(
    sequences.map((s) => [
      s.name,
      { name: s.name, title: s.title, markers: s.steps.flatMap(markersOf) },
    ]),
  );
  return orders;
}

const at = (value: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null ? (node as JsonObject)[key] : undefined,
      value,
    );

/** What a marker's values are read from: the event's data, or the notification's params. */
function subjectOf(line: ServerLine, marker: Marker): JsonObject | undefined {
  const params = paramsOf(line, marker.method);
  if (!params) return undefined;
  if (marker.event === undefined) return params;
  const event = params['event'] as JsonObject | undefined;
  return event?.['type'] === marker.event
    ? ((event['data'] as JsonObject | undefined) ?? {})
    : undefined;
}

/** Whether the line is an occurrence of the marker (a status marker's values are its identity). */
function occurs(line: ServerLine, marker: Marker): boolean {
  const subject = subjectOf(line, marker);
  if (!subject) return false;
  return (
    marker.event !== undefined ||
    marker.values.every(([path, value]) => at(subject, path) === value)
  );
}

/**
 * The problems of `lines` (one session's traffic, in arrival order) against the sequence: markers
 * out of order, and values that do not hold.
 */
export function orderProblems(name: string, lines: readonly ServerLine[]): string[] {
  const order = sequenceOrders().get(name);
  if (!order) return [`the IDL has no sequence ${name}`];
  const problems: string[] = [];
  let previous: { marker: Marker; index: number } | undefined;
  for (const marker of order.markers) {
    const position = lines.findIndex((line) => occurs(line, marker));
    if (position < 0) continue;
    const subject = subjectOf(lines[position]!, marker)!;
    for (const [path, value] of marker.values) {
      const actual = at(subject, path);
      if (actual !== value)
        problems.push(
          `"${order.title}" shows ${marker.label}; the runtime wrote ${path} = ${JSON.stringify(actual)}`,
        );
    }
    if (previous && position < previous.index)
      problems.push(`"${order.title}": ${marker.label} came before ${previous.marker.label}`);
    if (!previous || position > previous.index) previous = { marker, index: position };
  }
  return problems;
}
