// What one case found about each requirement it touched: failures (with why), a pass, or that it
// could not be tested. Cases of both kits (runtime and client) record into one of these.

export interface CaseFinding {
  readonly failures: string[];
  passed: boolean;
  notTested?: string;
}

/** The outcome of one case for one requirement, before tiers and the baseline apply. */
export type CaseOutcome = 'PASS' | 'FAIL' | 'NOT_TESTED';

const MAX_FAILURES_KEPT = 20;

export class CaseVerdicts {
  readonly findings = new Map<string, CaseFinding>();

  #finding(requirement: string): CaseFinding {
    let finding = this.findings.get(requirement);
    if (!finding) {
      finding = { failures: [], passed: false };
      this.findings.set(requirement, finding);
    }
    return finding;
  }

  fail(requirement: string, message: string): void {
    const failures = this.#finding(requirement).failures;
    if (failures.length < MAX_FAILURES_KEPT) failures.push(message);
  }

  /** The requirement was exercised and held (a failure, before or after, still wins). */
  exercised(requirement: string): void {
    this.#finding(requirement).passed = true;
  }

  pass(requirement: string): void {
    this.exercised(requirement);
  }

  /** Records a pass, or the failure `message` when `ok` is false; returns `ok`. */
  check(requirement: string, ok: boolean, message: string): boolean {
    if (ok) this.pass(requirement);
    else this.fail(requirement, message);
    return ok;
  }

  notTested(requirement: string, why: string): void {
    this.#finding(requirement).notTested ??= why;
  }

  /** Each requirement's outcome in this case, with its message. */
  outcomes(): Map<string, { outcome: CaseOutcome; message: string }> {
    const outcomes = new Map<string, { outcome: CaseOutcome; message: string }>();
    for (const [requirement, finding] of this.findings) {
      if (finding.failures.length > 0)
        outcomes.set(requirement, { outcome: 'FAIL', message: finding.failures.join('\n') });
      else if (finding.passed) outcomes.set(requirement, { outcome: 'PASS', message: '' });
      else if (finding.notTested !== undefined)
        outcomes.set(requirement, { outcome: 'NOT_TESTED', message: finding.notTested });
    }
    return outcomes;
  }
}
