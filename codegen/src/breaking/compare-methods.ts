// Methods matched by wire name: what happened to each, and the message positions of the ones that
// kept their shape (params, result, error data), each with who sends it.
import type { Method } from '../idl/model.js';
import type { IdlDocument, SchemaAt } from './document.js';
import type { Peer, PlacedDelta, Polarity, Position } from './delta.js';
import { compareErrors, sharedErrorData } from './compare-errors.js';

/** A position present in both versions, and the schema each gives it. */
export interface PositionPair {
  readonly position: Position;
  readonly old: SchemaAt;
  readonly new: SchemaAt;
  /** Type names for the semantic cross-check (null: no params). */
  readonly oldType: string | null;
  readonly newType: string | null;
}

export interface MethodComparison {
  readonly deltas: PlacedDelta[];
  readonly pairs: PositionPair[];
}

const BOTH_PEERS: readonly Peer[] = ['old clients', 'old runtimes'];

export function compareMethods(old: IdlDocument, next: IdlDocument): MethodComparison {
  const result: MethodComparison = { deltas: [], pairs: [] };
  const visible = next.model.methods.filter((m) => m.since <= old.version);
  old.model.methods.forEach((m, i) => {
    const match = counterpart(visible, m);
    if (match) compareMethod(old, next, m, i, match, next.model.methods.indexOf(match), result);
    else result.deltas.push(missingMethod(old, next, m, i));
  });
  next.model.methods.forEach((n, j) => {
    if (old.model.methods.some((m) => m.wireName === n.wireName)) return;
    result.deltas.push(addedMethod(old, n, j));
  });
  return result;
}

/**
 * The method of `methods` that is `m` on the wire: the same wire name and kind (a request family and
 * a notification family may share a prefix such as `_`), else the same wire name (its kind changed).
 */
function counterpart(methods: readonly Method[], m: Method): Method | undefined {
  return (
    methods.find((n) => n.wireName === m.wireName && n.kind === m.kind) ??
    methods.find((n) => n.wireName === m.wireName)
  );
}

/** The old peer a method's changes break: a request's caller, a notification's receiver. */
export function consumerOf(method: Method): Peer {
  const isClientSide = (method.kind === 'request') === (method.direction === 'clientToServer');
  return isClientSide ? 'old clients' : 'old runtimes';
}

function compareMethod(
  old: IdlDocument,
  next: IdlDocument,
  m: Method,
  i: number,
  n: Method,
  j: number,
  result: MethodComparison,
): void {
  const at = { oldPointer: `/methods/${i}`, newPointer: `/methods/${j}`, position: null };
  if (m.direction !== n.direction || m.kind !== n.kind) {
    const rule = m.direction !== n.direction ? 'method-direction-changed' : 'method-kind-changed';
    const what =
      m.direction !== n.direction ? `${m.direction} → ${n.direction}` : `${m.kind} → ${n.kind}`;
    result.deltas.push({
      rule,
      change: 'both',
      ...at,
      breaks: BOTH_PEERS,
      message: `\`${m.wireName}\`: ${what}`,
    });
    return;
  }
  if (n.deprecated && !m.deprecated)
    result.deltas.push({
      rule: 'deprecated',
      change: 'none',
      ...at,
      breaks: [],
      message: `\`${m.wireName}\` is deprecated: ${n.deprecated.reason}`,
    });
  comparePositions(old, next, m, i, n, j, result);
  const breaks = [consumerOf(m)];
  result.deltas.push(
    ...compareErrors(old, next, { method: m, index: i }, { method: n, index: j }, breaks),
  );
}

function comparePositions(
  old: IdlDocument,
  next: IdlDocument,
  m: Method,
  i: number,
  n: Method,
  j: number,
  result: MethodComparison,
): void {
  const consumer = consumerOf(m);
  const paramsPolarity: Polarity = m.kind === 'request' ? 'oldSends' : 'newSends';
  const params: Position = { label: `${m.wireName} params`, polarity: paramsPolarity, consumer };
  if ((m.params === null) !== (n.params === null)) {
    const change = n.params === null ? 'wider' : 'narrower';
    const message =
      n.params === null ? 'params may now be absent' : `params are now required (${n.params})`;
    const pointers = { oldPointer: `/methods/${i}/params`, newPointer: `/methods/${j}/params` };
    result.deltas.push({
      rule: 'params-presence-changed',
      change,
      ...pointers,
      position: params,
      message,
    });
  } else {
    const pointers = [`/methods/${i}/params`, `/methods/${j}/params`] as const;
    result.pairs.push(pair(params, m.params, n.params, ...pointers, NO_PARAMS));
  }
  if (m.result !== null && n.result !== null) {
    const position: Position = { label: `${m.wireName} result`, polarity: 'newSends', consumer };
    const pointers = [`/methods/${i}/result`, `/methods/${j}/result`] as const;
    result.pairs.push(pair(position, m.result, n.result, ...pointers, NO_PARAMS));
  }
  for (const [code, data] of sharedErrorData(old, next, m, n)) {
    const position: Position = {
      label: `${m.wireName} error ${code} data`,
      polarity: 'newSends',
      consumer,
    };
    result.pairs.push(pair(position, data.old, data.new, data.oldPointer, data.newPointer, {}));
  }
}

/** What a method without params accepts: absent, `{}` or `null`, any members. */
const NO_PARAMS = { type: ['object', 'null'] };

function pair(
  position: Position,
  oldType: string | null,
  newType: string | null,
  oldPointer: string,
  newPointer: string,
  untyped: unknown,
): PositionPair {
  const node = (type: string | null, pointer: string): SchemaAt => ({
    schema: type === null ? untyped : { $ref: `#/definitions/${type}` },
    pointer,
  });
  return {
    position,
    old: node(oldType, oldPointer),
    new: node(newType, newPointer),
    oldType,
    newType,
  };
}

function missingMethod(old: IdlDocument, next: IdlDocument, m: Method, i: number): PlacedDelta {
  const gated = next.model.methods.findIndex((n) => n.wireName === m.wireName);
  const renamed = next.model.methods.findIndex((n) => n.name === m.name);
  const breaks = [consumerOf(m)];
  const base = { oldPointer: `/methods/${i}`, change: 'both' as const, breaks, position: null };
  if (gated >= 0) {
    const since = next.model.methods[gated]?.since ?? 0;
    const message = `\`${m.wireName}\` is now \`since\` ${since}, but version ${old.version} has it`;
    return { ...base, rule: 'since-raised', newPointer: `/methods/${gated}/since`, message };
  }
  if (renamed >= 0) {
    const wire = next.model.methods[renamed]?.wireName ?? '';
    const message = `\`${m.wireName}\` is now called \`${wire}\``;
    return { ...base, rule: 'method-renamed', newPointer: `/methods/${renamed}/method`, message };
  }
  return {
    ...base,
    rule: 'method-removed',
    newPointer: '/methods',
    message: `\`${m.wireName}\` was removed`,
  };
}

function addedMethod(old: IdlDocument, n: Method, j: number): PlacedDelta {
  const at = {
    oldPointer: '/methods',
    newPointer: `/methods/${j}`,
    change: 'none' as const,
    breaks: [],
    position: null,
  };
  if (n.since > old.version)
    return {
      ...at,
      rule: 'since-gated',
      message: `\`${n.wireName}\` is new in version ${n.since}`,
    };
  const message = `\`${n.wireName}\` is new, and not gated by \`since\`: peers of version ${old.version} answer it with -32601`;
  return { ...at, rule: 'method-added', message };
}
