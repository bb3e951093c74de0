// The error codes a method answers with: matched by code, so renaming an error changes nothing.
import type { Method } from '../idl/model.js';
import type { IdlDocument } from './document.js';
import type { Peer, PlacedDelta } from './delta.js';

/** A method and its index in its file's `methods`. */
export interface IndexedMethod {
  readonly method: Method;
  readonly index: number;
}

export function compareErrors(
  old: IdlDocument,
  next: IdlDocument,
  before: IndexedMethod,
  after: IndexedMethod,
  breaks: readonly Peer[],
): PlacedDelta[] {
  const [m, n] = [before.method, after.method];
  const newCodes = n.errors.map((e) => codeOf(next, e));
  const deltas: PlacedDelta[] = [];
  m.errors.forEach((name, k) => {
    if (!newCodes.includes(codeOf(old, name)))
      deltas.push(lostError(old, next, before, after, name, k, breaks));
  });
  n.errors.forEach((name, k) => {
    const code = codeOf(next, name);
    if (m.errors.some((e) => codeOf(old, e) === code)) return;
    deltas.push({
      rule: 'error-added',
      change: 'none',
      oldPointer: `/methods/${before.index}/errors`,
      newPointer: `/methods/${after.index}/errors/${k}`,
      message: `\`${m.wireName}\` may answer error ${String(code)} (${name})`,
      position: null,
      breaks: [],
    });
  });
  return deltas;
}

function lostError(
  old: IdlDocument,
  next: IdlDocument,
  before: IndexedMethod,
  after: IndexedMethod,
  name: string,
  k: number,
  breaks: readonly Peer[],
): PlacedDelta {
  const wire = before.method.wireName;
  const oldCode = String(codeOf(old, name));
  const kept = after.method.errors.indexOf(name);
  const base = {
    change: 'both' as const,
    oldPointer: `/methods/${before.index}/errors/${k}`,
    position: null,
    breaks,
  };
  if (kept >= 0)
    return {
      ...base,
      rule: 'error-code-changed',
      newPointer: `/methods/${after.index}/errors/${kept}`,
      message: `\`${wire}\` error ${name}: code ${oldCode} → ${String(codeOf(next, name))}`,
    };
  return {
    ...base,
    rule: 'error-dropped',
    newPointer: `/methods/${after.index}/errors`,
    message: `\`${wire}\` no longer answers error ${oldCode} (${name})`,
  };
}

function codeOf(doc: IdlDocument, name: string): number | undefined {
  return doc.model.errors.find((e) => e.name === name)?.code;
}

export interface ErrorDataPair {
  readonly old: string | null;
  readonly new: string | null;
  readonly oldPointer: string;
  readonly newPointer: string;
}

/** Error codes both versions of the method answer with, and the type of their `data`. */
export function sharedErrorData(
  old: IdlDocument,
  next: IdlDocument,
  m: Method,
  n: Method,
): Map<number, ErrorDataPair> {
  const found = new Map<number, ErrorDataPair>();
  for (const name of m.errors) {
    const oldIndex = old.model.errors.findIndex((e) => e.name === name);
    const oldError = old.model.errors[oldIndex];
    const newIndex = next.model.errors.findIndex(
      (e) => e.code === oldError?.code && n.errors.includes(e.name),
    );
    const newError = next.model.errors[newIndex];
    if (!oldError || !newError || (oldError.dataType === null && newError.dataType === null))
      continue;
    found.set(oldError.code, {
      old: oldError.dataType,
      new: newError.dataType,
      oldPointer: `/errors/${oldIndex}/data`,
      newPointer: `/errors/${newIndex}/data`,
    });
  }
  return found;
}
