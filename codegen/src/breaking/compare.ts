// The structural comparison of two IDL documents: meta, methods, then every message position.
import type { IdlDocument } from './document.js';
import type { PlacedDelta } from './delta.js';
import type { PositionPair } from './compare-methods.js';
import { compareMethods } from './compare-methods.js';
import { compareMeta } from './compare-meta.js';
import type { CompatFinding } from './findings.js';
import { judgeDeltas } from './findings.js';
import { compareNodes, createContext } from './walk.js';

export interface StructuralComparison {
  readonly findings: CompatFinding[];
  /** The positions both versions share, for the semantic cross-check. */
  readonly pairs: readonly PositionPair[];
}

export function compareStructure(old: IdlDocument, next: IdlDocument): StructuralComparison {
  const deltas: PlacedDelta[] = [...compareMeta(old, next)];
  const methods = compareMethods(old, next);
  deltas.push(...methods.deltas);
  for (const pair of methods.pairs) {
    const emit = (d: Omit<PlacedDelta, 'position'>) =>
      deltas.push({ ...d, position: pair.position });
    compareNodes(createContext(old, next, pair.position.polarity, emit), pair.old, pair.new);
  }
  return { findings: judgeDeltas(old, next, deltas), pairs: methods.pairs };
}
