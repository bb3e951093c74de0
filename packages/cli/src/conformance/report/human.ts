// The report a person reads: a line per requirement (its outcome, tier and title, and why when
// it did not pass), a summary per tier, and the verdict.
import { OUTCOMES, TIERS } from '../requirements/index.js';
import type { Outcome, Tier } from '../requirements/index.js';
import type { RequirementResult } from '../results.js';
import type { Verdict } from '../verdict.js';

const indent = (text: string, prefix: string) =>
  text
    .split('\n')
    .slice(0, 6)
    .map((line) => `${prefix}${line.length > 300 ? `${line.slice(0, 300)}…` : line}`)
    .join('\n');

function requirementLine(result: RequirementResult): string {
  const { requirement, outcome } = result;
  const label = result.expected !== undefined ? `${outcome}*` : outcome;
  const head = `${label.padEnd(11)} ${requirement.id.padEnd(18)} ${requirement.tier.padEnd(10)} ${requirement.title}`;
  const why = outcome === 'PASS' ? '' : result.message;
  const expected = result.expected !== undefined ? `expected (baseline): ${result.expected}` : '';
  return [
    head,
    ...[why, expected].filter((t) => t !== '').map((t) => indent(t, '            ')),
  ].join('\n');
}

/** `MANDATORY   52 PASS, 1 FAIL, 0 WARN, 2 SKIP, 0 NOT_TESTED`. */
export function tierSummary(results: readonly RequirementResult[], tier: Tier): string {
  const counts = OUTCOMES.map(
    (o: Outcome) =>
      `${results.filter((r) => r.requirement.tier === tier && r.outcome === o).length} ${o}`,
  );
  return `${tier.padEnd(11)} ${counts.join(', ')}`;
}

export function renderHuman(
  header: readonly string[],
  results: readonly RequirementResult[],
  verdict: Verdict,
): string {
  const lines = [...header, ''];
  for (const result of results) lines.push(requirementLine(result));
  lines.push('');
  for (const tier of TIERS) lines.push(tierSummary(results, tier));
  lines.push('', ...verdict.lines);
  return `${lines.join('\n')}\n`;
}
