// What the kit judges: requirements (a rule, its tier and where it is written) and the outcomes
// a run gives them.

/**
 * MANDATORY: part of the verdict. CAPABILITY: part of the verdict when the runtime reported the
 * capability, skipped otherwise. ADVISORY: reported, never part of the verdict.
 */
export type Tier = 'MANDATORY' | 'CAPABILITY' | 'ADVISORY';

export const TIERS: readonly Tier[] = ['MANDATORY', 'CAPABILITY', 'ADVISORY'];

/** PASS, FAIL, WARN (an advisory failure), SKIP (not applicable or not selected), NOT_TESTED. */
export type Outcome = 'PASS' | 'FAIL' | 'WARN' | 'SKIP' | 'NOT_TESTED';

export const OUTCOMES: readonly Outcome[] = ['PASS', 'FAIL', 'WARN', 'SKIP', 'NOT_TESTED'];

export interface Requirement {
  /** `DSH-<AREA>-<NNN>`, stable across versions of the kit. */
  readonly id: string;
  readonly tier: Tier;
  /** Where the rule is written: a WIRE.md section, or a pointer into protocol.idl.json. */
  readonly citation: string;
  readonly title: string;
  /** CAPABILITY tier: the capability (a generated `CapabilityName`) that must have been reported. */
  readonly capability?: string;
  /** An area the user can opt out of (`--no-delegate`): not tested then, not a failure. */
  readonly optOut?: 'delegate';
  /** The runtimes it applies to: `v1` (playing version 1) or `v2` (version 2 or later). */
  readonly versions?: 'v1' | 'v2';
}

/** `req('DSH-FRAME-001', 'MANDATORY', 'WIRE.md §1', '…')`: a registry entry. */
export function req(
  id: string,
  tier: Tier,
  citation: string,
  title: string,
  extra: Pick<Requirement, 'capability' | 'optOut' | 'versions'> = {},
): Requirement {
  return { id, tier, citation, title, ...extra };
}
