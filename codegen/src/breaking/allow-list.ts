// Deliberate breaks: a protocol's allow list (protocol/breaking-allow.json for the root protocol,
// its targets file's `releases.allowList`) lists each with the released version it breaks, the
// rule, the pointer and the reason. Every run prints it; an entry that allows nothing fails.
import { existsSync, readFileSync } from 'node:fs';
import { IdlError, parseIdlSource, type IdlProblem } from '../idl/source.js';
import type { CompatFinding } from './findings.js';
import type { RuleId } from './rules.js';
import { RULE_IDS } from './rules.js';

export interface AllowEntry {
  /** The released protocol version the change breaks. */
  readonly against: number;
  readonly rule: RuleId;
  /** The finding's JSON pointer in the new IDL (or in the released one). */
  readonly pointer: string;
  readonly reason: string;
}

export interface AllowList {
  readonly file: string;
  readonly entries: readonly AllowEntry[];
}

export function loadAllowList(path: string, displayPath: string): AllowList {
  if (!existsSync(path)) return { file: displayPath, entries: [] };
  const source = parseIdlSource(displayPath, readFileSync(path, 'utf8'));
  const problems: IdlProblem[] = [];
  const value = source.value as { allow?: unknown };
  const entries = Array.isArray(value.allow) ? (value.allow as unknown[]) : [];
  if (!Array.isArray(value.allow))
    problems.push({
      pointer: '/allow',
      ...source.locate(''),
      message: 'missing "allow" list',
      hint: 'write { "allow": [] }',
    });
  entries.forEach((entry, i) => {
    const problem = entryProblem(entry);
    if (problem)
      problems.push({ pointer: `/allow/${i}`, ...source.locate(`/allow/${i}`), ...problem });
  });
  if (problems.length > 0) throw new IdlError(displayPath, problems);
  return { file: displayPath, entries: entries as AllowEntry[] };
}

function entryProblem(entry: unknown): { message: string; hint: string } | null {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const hint =
    'each entry is { "against": <released version>, "rule": "<rule id>", "pointer": "/…", "reason": "why this break is deliberate" }';
  if (!Number.isInteger(e['against']) || (e['against'] as number) < 1)
    return { message: '"against" must be a released protocol version', hint };
  if (!RULE_IDS.includes(e['rule'] as RuleId))
    return {
      message: `unknown rule ${JSON.stringify(e['rule'])}`,
      hint: `use one of: ${RULE_IDS.join(', ')}`,
    };
  if (typeof e['pointer'] !== 'string' || !e['pointer'].startsWith('/'))
    return { message: '"pointer" must be a JSON pointer', hint };
  if (typeof e['reason'] !== 'string' || e['reason'].trim() === '')
    return {
      message: 'an entry needs a "reason"',
      hint: 'say why old peers may break here, and who agreed',
    };
  return null;
}

/** The entry that lets this finding through, if any. */
export function allowingEntry(
  list: AllowList,
  finding: CompatFinding,
  against: number,
): AllowEntry | null {
  return (
    list.entries.find(
      (e) =>
        e.against === against &&
        e.rule === finding.rule &&
        (e.pointer === finding.new.pointer || e.pointer === finding.old.pointer),
    ) ?? null
  );
}
