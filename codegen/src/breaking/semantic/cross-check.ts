// The semantic cross-check: messages one version's sender may send, validated by the other
// version's receiver. Old senders' messages come from the old schema; new senders' from the new
// schema as an old peer sees it (since-gated items left out). A message that crosses is a break.
import type { RawIdl } from '../../idl/build-model.js';
import { buildModel, schemaOf } from '../../idl/build-model.js';
import { refName } from '../../idl/model.js';
import type { PositionPair } from '../compare-methods.js';
import type { IdlDocument } from '../document.js';
import { typeAt } from '../document.js';
import type { Polarity } from '../delta.js';
import { neighbours } from './mutate.js';
import { onlyDefinedMembers, projectToVersion } from './project.js';
import { sampleType, samplingDefinitions } from './samples.js';
import type { TypeValidator } from './validators.js';
import { createValidators } from './validators.js';
import type { SamplesByLabel } from './vectors.js';

export type SampleSource = 'faker' | 'example' | 'vector' | 'neighbour';

export interface Crossing {
  /** The position, e.g. `session/prompt params`. */
  readonly label: string;
  readonly polarity: Polarity;
  readonly source: SampleSource;
  /** The type the sample was checked as: the position's, or a type inside it. */
  readonly typeName: string;
  readonly sample: unknown;
  /** Why the receiving version rejects it. */
  readonly violation: string;
}

export interface CrossCheckResult {
  /** Samples valid for their sender and checked by the receiver. */
  readonly checked: number;
  readonly crossings: readonly Crossing[];
}

export interface CrossCheckOptions {
  readonly vectors: SamplesByLabel;
  /** Faker samples per position and polarity. */
  readonly samples: number;
  readonly seed: number;
}

/** One version as sender or receiver: its raw types (for faker) and its validators. */
interface Side {
  readonly raw: RawIdl;
  readonly definitions: Record<string, unknown>;
  /** What a receiver of this version accepts. */
  readonly validate: (typeName: string) => TypeValidator | null;
  /** What a sender of this version sends: only the members its version defines. */
  readonly validateSent: (typeName: string) => TypeValidator | null;
}

interface Candidate {
  readonly source: SampleSource;
  readonly value: unknown;
}

const NEIGHBOUR_BASES = 4;
const NEIGHBOURS_PER_BASE = 120;
const KEPT_PER_POSITION = 3;

export function crossCheck(
  old: IdlDocument,
  next: IdlDocument,
  pairs: readonly PositionPair[],
  options: CrossCheckOptions,
): CrossCheckResult {
  const oldSide = sideOf(old.raw);
  const newSide = sideOf(next.raw);
  const sides = {
    old: oldSide,
    new: newSide,
    projected: projectedSide(next.raw, old.version, newSide),
  };
  let checked = 0;
  const crossings: Crossing[] = [];
  for (const pair of pairs) {
    const result = checkPosition(pair, sides, [old, next], options);
    checked += result.checked;
    crossings.push(...result.crossings.slice(0, KEPT_PER_POSITION));
  }
  return { checked, crossings };
}

interface Sides {
  readonly old: Side;
  readonly new: Side;
  /** The new version as peers of the old one see it. */
  readonly projected: Side;
}

/** Old senders use the old schema and new receivers the whole new one; new senders send only what the old version knows. */
function checkPosition(
  pair: PositionPair,
  sides: Sides,
  docs: readonly [IdlDocument, IdlDocument],
  options: CrossCheckOptions,
): CrossCheckResult {
  if (pair.oldType === null || pair.newType === null) return { checked: 0, crossings: [] };
  const isOldSender = pair.position.polarity === 'oldSends';
  const sender = isOldSender
    ? { side: sides.old, type: pair.oldType }
    : { side: sides.projected, type: pair.newType };
  const receiver = isOldSender
    ? { side: sides.new, type: pair.newType }
    : { side: sides.old, type: pair.oldType };
  const crossings: Crossing[] = [];
  const check = (typeName: string, receiverType: string, candidates: readonly Candidate[]) =>
    checkAll(
      candidates,
      sender.side.validateSent(typeName),
      receiver.side.validate(receiverType),
      (c, violation) =>
        crossings.push({
          label: pair.position.label,
          polarity: pair.position.polarity,
          source: c.source,
          typeName,
          sample: c.value,
          violation,
        }),
    );
  let checked = check(sender.type, receiver.type, positionCandidates(pair, sender, docs, options));
  for (const inner of sharedInnerTypes(
    sender.side.raw,
    sender.type,
    receiver.side.raw,
    receiver.type,
  )) {
    const examples = docs.flatMap((doc) => examplesOf(doc, inner));
    checked += check(inner, inner, withNeighbours(examples, 40));
  }
  return { checked, crossings };
}

const sides = new WeakMap<RawIdl, Side>();

function sideOf(raw: RawIdl): Side {
  const cached = sides.get(raw);
  if (cached) return cached;
  const side = {
    raw,
    definitions: samplingDefinitions(raw),
    validate: createValidators(buildModel(raw)),
    validateSent: createValidators(buildModel(onlyDefinedMembers(raw))),
  };
  sides.set(raw, side);
  return side;
}

/** The new version as an old peer sees it; the same side when nothing is gated above `version`. */
function projectedSide(raw: RawIdl, version: number, full: Side): Side {
  const projected = projectToVersion(raw, version);
  return JSON.stringify(projected) === JSON.stringify(raw) ? full : sideOf(projected);
}

function positionCandidates(
  pair: PositionPair,
  sender: { side: Side; type: string },
  [old, next]: readonly [IdlDocument, IdlDocument],
  options: CrossCheckOptions,
): Candidate[] {
  const fixed: Candidate[] = [
    ...examplesOf(old, pair.oldType ?? ''),
    ...examplesOf(next, pair.newType ?? ''),
    ...(options.vectors.get(pair.position.label) ?? []).map((value) => ({
      source: 'vector' as const,
      value,
    })),
  ];
  const seed = options.seed + hash(pair.position.label);
  const faked = sampleType(sender.side.definitions, sender.type, options.samples, seed).map(
    (value) => ({ source: 'faker' as const, value }),
  );
  return withNeighbours([...fixed, ...faked], NEIGHBOURS_PER_BASE);
}

function withNeighbours(bases: readonly Candidate[], perBase: number): Candidate[] {
  const near = bases
    .slice(0, NEIGHBOUR_BASES)
    .flatMap((c) =>
      neighbours(c.value, perBase).map((value) => ({ source: 'neighbour' as const, value })),
    );
  return [...bases, ...near];
}

/** Validates each candidate the sender accepts with the receiver; returns how many were checked. */
function checkAll(
  candidates: readonly Candidate[],
  sender: TypeValidator | null,
  receiver: TypeValidator | null,
  onCrossing: (c: Candidate, violation: string) => void,
): number {
  if (!sender || !receiver) return 0;
  let checked = 0;
  for (const c of candidates) {
    if (!sender(c.value).isValid) continue;
    checked++;
    const verdict = receiver(c.value);
    if (!verdict.isValid) onCrossing(c, verdict.violation);
  }
  return checked;
}

/**
 * Types a member refers to directly, reachable from both positions' types, by name (a renamed type
 * is checked through its parent). A union's variants are not among them: a variant's examples are
 * checked as the union, whose dispatch decides which variant a value is.
 */
function sharedInnerTypes(
  senderRaw: RawIdl,
  senderType: string,
  receiverRaw: RawIdl,
  receiverType: string,
): string[] {
  const fromReceiver = new Set(directTypes(receiverRaw, receiverType));
  return directTypes(senderRaw, senderType).filter((t) => t !== senderType && fromReceiver.has(t));
}

function directTypes(raw: RawIdl, root: string): string[] {
  const seen = new Set<string>();
  const visit = (node: unknown, isVariant: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, isVariant));
    if (typeof node !== 'object' || node === null) return;
    const name = refName(node);
    if (name !== null && !seen.has(`${name}|${String(isVariant)}`)) {
      seen.add(`${name}|${String(isVariant)}`);
      visit(schemaOf(raw, name), false);
    }
    for (const [key, value] of Object.entries(node))
      if (key !== 'examples') visit(value, key === 'anyOf');
  };
  visit({ $ref: `#/definitions/${root}` }, false);
  return [...seen]
    .filter((key) => key.endsWith('|false'))
    .map((key) => key.slice(0, -'|false'.length));
}

/** A type's examples and, for a union, its variants' examples (nested unions included). */
function examplesOf(doc: IdlDocument, typeName: string, depth = 0): Candidate[] {
  const schema = typeAt(doc, typeName)?.schema as
    { examples?: unknown[]; anyOf?: unknown[] } | undefined;
  const own = (schema?.examples ?? []).map((value) => ({ source: 'example' as const, value }));
  const variants =
    depth > 4 ? [] : (schema?.anyOf ?? []).map(refName).filter((n): n is string => n !== null);
  return [...own, ...variants.flatMap((v) => examplesOf(doc, v, depth + 1))];
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}
