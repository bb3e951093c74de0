// What a step of a sequence diagram talks about: the object its members and values name, and, for
// a notification that carries a log entry, the entry's variant. Shared by the checker and the docs.
import { knownTags } from '../schema/bundle.js';
import type { Method, Model, SequenceStep, TypeDef } from './model.js';

export interface StepTarget {
  /** The object `members` and `values` are relative to; undefined when there is none. */
  readonly type: TypeDef | undefined;
  /** For one event type: the union variant it selects (null when no variant has that tag). */
  readonly eventVariant: TypeDef | null;
}

const byName = (model: Model, name: string | null | undefined) =>
  name ? model.types.find((t) => t.name === name) : undefined;

/** The open union a notification carries (a `session.event` entry), if its params hold one. */
export function eventUnion(model: Model, method: Method): TypeDef | undefined {
  const params = byName(model, method.params);
  for (const field of params?.fields ?? []) {
    const target = byName(model, field.typeRef);
    if (target?.union && !field.isArray) return target;
  }
  return undefined;
}

/** Every event type a notification of the protocol can carry, in IDL order. */
export function knownEventTags(model: Model): string[] {
  const tags = new Set<string>();
  for (const method of model.methods) {
    const union = method.kind === 'notification' ? eventUnion(model, method) : undefined;
    if (union) for (const tag of knownTags(union, model)) tags.add(tag);
  }
  return [...tags];
}

export function stepTarget(
  model: Model,
  method: Method,
  kind: Extract<SequenceStep, { method: string }>['kind'],
  events: readonly string[],
): StepTarget {
  if (kind === 'request') return { type: byName(model, method.params), eventVariant: null };
  if (kind === 'result') return { type: byName(model, method.result), eventVariant: null };
  if (kind === 'error') return { type: undefined, eventVariant: null };
  const params = byName(model, method.params);
  if (events.length !== 1) return { type: params, eventVariant: null };
  const union = eventUnion(model, method);
  const variantName = union?.union?.variants.find((v) => v.tag === events[0])?.typeName;
  const variant = byName(model, variantName) ?? null;
  const data = variant?.fields.find((f) => f.name === 'data');
  return { type: byName(model, data?.typeRef) ?? variant ?? undefined, eventVariant: variant };
}
