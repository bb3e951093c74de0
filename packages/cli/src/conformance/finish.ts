// The end of a run, for either kind of peer: the baseline applied, the verdict, the human report
// on stdout and the files asked for; the exit status (0 conformant, 1 not).
import { writeFileSync } from 'node:fs';
import { IDL_VERSION } from '@dsh-sdk/protocol';
import { idlSha256, kitVersion } from './idl-data.js';
import type { CommonOptions } from './options.js';
import { renderHuman } from './report/human.js';
import { buildJsonReport } from './report/json.js';
import type { ReportRun } from './report/json.js';
import { renderJunit } from './report/junit.js';
import { writeTranscripts } from './report/transcripts.js';
import type { CaseResult, RequirementResult } from './results.js';
import { isNarrowed } from './selection.js';
import type { BaselineEntry } from './verdict.js';
import { applyBaseline, judge } from './verdict.js';

export interface FinishedRun {
  readonly kind: 'runtime' | 'client';
  readonly command: readonly string[];
  readonly header: readonly string[];
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly serverInfo: unknown;
  readonly protocolVersion: number | null;
  readonly capabilities: unknown;
  readonly options: Readonly<Record<string, unknown>>;
  readonly requirements: readonly RequirementResult[];
  readonly cases: readonly CaseResult[];
  readonly knownCaseIds: ReadonlySet<string>;
}

export function finishRun(
  run: FinishedRun,
  common: CommonOptions,
  baseline: readonly BaselineEntry[],
): number {
  const { results, stale, unknown } = applyBaseline(
    run.requirements,
    run.cases,
    run.knownCaseIds,
    baseline,
  );
  const verdict = judge(results, stale, unknown, isNarrowed(common.selection));
  process.stdout.write(renderHuman(run.header, results, verdict));
  const seconds = (run.endedAt.getTime() - run.startedAt.getTime()) / 1000;
  if (common.reportJson !== undefined) {
    const reportRun: ReportRun = {
      kind: run.kind,
      command: run.command,
      serverInfo: run.serverInfo,
      protocolVersion: run.protocolVersion,
      capabilities: run.capabilities,
      kitVersion: kitVersion(),
      idlVersion: IDL_VERSION,
      idlSha256: idlSha256(),
      startedAt: run.startedAt.toISOString(),
      endedAt: run.endedAt.toISOString(),
      options: run.options,
    };
    writeFileSync(
      common.reportJson,
      `${JSON.stringify(buildJsonReport(reportRun, results, run.cases, verdict), null, 2)}\n`,
    );
  }
  if (common.junit !== undefined)
    writeFileSync(common.junit, renderJunit(run.kind, results, seconds));
  if (common.transcripts !== undefined) writeTranscripts(common.transcripts, run.cases);
  return verdict.conformant ? 0 : 1;
}
