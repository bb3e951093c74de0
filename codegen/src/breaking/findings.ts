// Deltas judged by their positions and merged: one finding per change, located in both files.
import type { IdlDocument } from './document.js';
import type { Peer, PlacedDelta, Position } from './delta.js';
import { isBreaking } from './delta.js';
import type { RuleId } from './rules.js';
import { RULES, RULE_IDS } from './rules.js';

export interface Place {
  readonly file: string;
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
}

export interface CompatFinding {
  readonly rule: RuleId;
  readonly severity: 'breaking' | 'compatible';
  /** The old peers that stop working; empty when compatible. */
  readonly breaks: readonly Peer[];
  readonly old: Place;
  readonly new: Place;
  /** One sentence: what changed and why it breaks (or not). */
  readonly message: string;
  /** How to make the change compatible. */
  readonly fix: string;
  /** The message positions the verdict comes from, e.g. `session/prompt params`. */
  readonly via: readonly string[];
}

export function judgeDeltas(
  old: IdlDocument,
  next: IdlDocument,
  deltas: readonly PlacedDelta[],
): CompatFinding[] {
  const groups = new Map<string, PlacedDelta[]>();
  for (const d of deltas) {
    const key = [d.rule, d.oldPointer, d.newPointer, d.message].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const findings = [...groups.values()].map((group) => judgeGroup(old, next, group));
  return findings.sort(compareFindings);
}

function judgeGroup(
  old: IdlDocument,
  next: IdlDocument,
  group: readonly PlacedDelta[],
): CompatFinding {
  const first = group[0] as PlacedDelta;
  const positions = unique(group.map((d) => d.position).filter((p): p is Position => p !== null));
  const broken = positions.filter((p) => isBreaking(first.change, p.polarity));
  const direct = first.position === null && first.change !== 'none' ? (first.breaks ?? []) : [];
  const breaks = unique([...direct, ...broken.map((p) => p.consumer)]);
  const isBroken = breaks.length > 0;
  const via = (isBroken && broken.length > 0 ? broken : positions).map((p) => p.label);
  return {
    rule: first.rule,
    severity: isBroken ? 'breaking' : 'compatible',
    breaks,
    old: place(old, first.oldPointer),
    new: place(next, first.newPointer),
    message:
      isBroken && broken.length > 0 ? `${first.message}: ${explain(broken)}.` : `${first.message}.`,
    fix: RULES[first.rule].fix,
    via,
  };
}

/** Why the positions break: who sends what to whom. */
function explain(positions: readonly Position[]): string {
  const first = positions[0] as Position;
  const labels = positions.map((p) => p.label).join(', ');
  const consumer = first.consumer === 'old clients' ? 'clients' : 'runtimes';
  const provider = consumer === 'clients' ? 'runtimes' : 'clients';
  return first.polarity === 'oldSends'
    ? `old ${consumer} may still send what the old version allows in ${labels}, which new ${provider} reject`
    : `new ${provider} may send, in ${labels}, what old ${consumer} reject`;
}

export function place(doc: IdlDocument, pointer: string): Place {
  return { file: doc.source.path, pointer, ...doc.source.locate(pointer) };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function compareFindings(a: CompatFinding, b: CompatFinding): number {
  if (a.severity !== b.severity) return a.severity === 'breaking' ? -1 : 1;
  return (
    a.new.line - b.new.line ||
    a.new.column - b.new.column ||
    RULE_IDS.indexOf(a.rule) - RULE_IDS.indexOf(b.rule)
  );
}
