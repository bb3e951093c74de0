// `--report-json FILE`: the run, every requirement (with the transcript and stderr of a failure)
// and the verdict, in the shape conformance-report.schema.json describes.
import type { RequirementResult, CaseResult } from '../results.js';
import type { Verdict } from '../verdict.js';

/** What the run was: the same for both kinds of peer, some members null where they do not apply. */
export interface ReportRun {
  readonly kind: 'runtime' | 'client';
  readonly command: readonly string[];
  readonly serverInfo: unknown;
  readonly protocolVersion: number | null;
  readonly capabilities: unknown;
  readonly kitVersion: string;
  readonly idlVersion: string;
  readonly idlSha256: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** A transcript can be long (a burst of events): the header and the last records are kept. */
const MAX_TRANSCRIPT_RECORDS = 2000;

function transcriptOf(result: CaseResult): { transcript: unknown[]; droppedRecords: number } {
  const records = result.transcripts.flat();
  const kept =
    records.length <= MAX_TRANSCRIPT_RECORDS
      ? records
      : [records[0]!, ...records.slice(records.length - MAX_TRANSCRIPT_RECORDS + 1)];
  return {
    transcript: kept.map((line) => JSON.parse(line) as unknown),
    droppedRecords: records.length - kept.length,
  };
}

function requirementEntry(result: RequirementResult) {
  const { requirement } = result;
  return {
    id: requirement.id,
    tier: requirement.tier,
    title: requirement.title,
    citation: requirement.citation,
    ...(requirement.capability === undefined ? {} : { capability: requirement.capability }),
    outcome: result.outcome,
    message: result.message,
    durationMs: Math.round(result.durationMs),
    ...(result.expected === undefined ? {} : { expected: result.expected }),
    ...(result.optedOut ? { optedOut: true } : {}),
    cases: result.cases,
    ...(result.failingCase && (result.outcome === 'FAIL' || result.outcome === 'WARN')
      ? {
          failure: {
            case: result.failingCase.id,
            ...transcriptOf(result.failingCase),
            stderrTail: result.failingCase.stderrTail,
          },
        }
      : {}),
  };
}

export function buildJsonReport(
  run: ReportRun,
  results: readonly RequirementResult[],
  cases: readonly CaseResult[],
  verdict: Verdict,
): object {
  return {
    $schema: 'https://dsh-sdk.dev/conformance-report.schema.json',
    format: 'dsh-sdk-conformance-report',
    version: 1,
    run,
    requirements: results.map(requirementEntry),
    cases: cases.map((c) => ({
      id: c.id,
      title: c.title,
      requirements: c.requirements,
      durationMs: Math.round(c.durationMs),
      ...(c.skipped === undefined ? {} : { skipped: c.skipped }),
    })),
    verdict: {
      conformant: verdict.conformant,
      counts: verdict.counts,
      stale: verdict.stale,
      unknown: verdict.unknown,
      summary: verdict.lines,
    },
  };
}
