// What the comparator finds before it is judged: a change of one facet between the old and the new
// IDL, and the message position it was found in.
import type { RuleId } from './rules.js';

/**
 * How the set of accepted messages moved: the new version accepts less (`narrower`), more
 * (`wider`), some of each (`both`), or the change does not move it (`none`).
 */
export type Change = 'narrower' | 'wider' | 'both' | 'none';

/**
 * Who sends the messages of a position. `oldSends`: an old peer sends, a new one receives, so the
 * new version must accept everything the old one allowed. `newSends`: a new peer sends (only what
 * the old version knows, since-gated items left out), an old one receives, so the new version must
 * not allow anything the old one rejects.
 */
export type Polarity = 'oldSends' | 'newSends';

export type Peer = 'old clients' | 'old runtimes';

/**
 * A place messages flow through. A method's provider (a request's callee, a notification's sender)
 * is the new side; its consumer is the old one: old consumers must keep working with new providers.
 */
export interface Position {
  /** e.g. `session/prompt params`. */
  readonly label: string;
  readonly polarity: Polarity;
  /** The old peer that breaks when this position breaks. */
  readonly consumer: Peer;
}

export interface Delta {
  readonly rule: RuleId;
  readonly change: Change;
  readonly oldPointer: string;
  readonly newPointer: string;
  /** What changed, e.g. "`minLength` 0 → 1". */
  readonly message: string;
  /** Set for changes judged without a position (methods, meta): who breaks, if anyone. */
  readonly breaks?: readonly Peer[];
}

/** A delta seen from a position. */
export interface PlacedDelta extends Delta {
  readonly position: Position | null;
}

export function isBreaking(change: Change, polarity: Polarity): boolean {
  if (change === 'none') return false;
  if (change === 'both') return true;
  return polarity === 'oldSends' ? change === 'narrower' : change === 'wider';
}

/** The change that breaks a position of this polarity. */
export function breakingChange(polarity: Polarity): Change {
  return polarity === 'oldSends' ? 'narrower' : 'wider';
}
