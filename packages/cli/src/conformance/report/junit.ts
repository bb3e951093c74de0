// `--junit FILE`: one test case per requirement, one suite per tier, as CI systems read JUnit XML.
// A failure counts against conformance; skipped is everything that does not (a skip, an opt-out,
// an advisory's warning is a pass with its message in system-out, an expected failure a skip).
import { TIERS } from '../requirements/index.js';
import type { RequirementResult } from '../results.js';
import { countsAgainst } from '../results.js';

const xml = (text: string): string =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

type Kind = 'failure' | 'skipped' | 'passed';

function kindOf(result: RequirementResult): Kind {
  if (result.expected !== undefined) return 'skipped';
  if (countsAgainst(result)) return 'failure';
  return result.outcome === 'PASS' || result.outcome === 'WARN' ? 'passed' : 'skipped';
}

function testCase(kind: string, result: RequirementResult): string {
  const { requirement } = result;
  const area = requirement.id.split('-')[1] ?? 'OTHER';
  const open = `    <testcase classname="dsh-sdk.conformance.${kind}.${area}" name="${xml(`${requirement.id} ${requirement.title}`)}" time="${(result.durationMs / 1000).toFixed(3)}">`;
  const message = result.message.split('\n')[0] ?? '';
  const body = {
    failure: `      <failure type="${result.outcome}" message="${xml(message)}">${xml(`${requirement.citation}\n${result.message}`)}</failure>`,
    skipped: `      <skipped message="${xml(result.expected !== undefined ? `expected failure: ${result.expected}` : `${result.outcome}: ${message}`)}"/>`,
    passed:
      result.outcome === 'WARN'
        ? `      <system-out>${xml(`WARN: ${result.message}`)}</system-out>`
        : '',
  }[kindOf(result)];
  return [open, body, '    </testcase>'].filter((l) => l !== '').join('\n');
}

export function renderJunit(
  kind: 'runtime' | 'client',
  results: readonly RequirementResult[],
  seconds: number,
): string {
  const count = (rs: readonly RequirementResult[], k: Kind) =>
    rs.filter((r) => kindOf(r) === k).length;
  const suites = TIERS.map((tier) => {
    const rs = results.filter((r) => r.requirement.tier === tier);
    const time = rs.reduce((s, r) => s + r.durationMs, 0) / 1000;
    return [
      `  <testsuite name="dsh-sdk conformance ${kind}: ${tier}" tests="${rs.length}" failures="${count(rs, 'failure')}" errors="0" skipped="${count(rs, 'skipped')}" time="${time.toFixed(3)}">`,
      ...rs.map((r) => testCase(kind, r)),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dsh-sdk conformance ${kind}" tests="${results.length}" failures="${count(results, 'failure')}" errors="0" skipped="${count(results, 'skipped')}" time="${seconds.toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
