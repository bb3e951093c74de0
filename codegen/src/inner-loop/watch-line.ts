// The one line the watcher prints per save: when, which IDL, what changed, the verdict and its time.
import { basename, dirname } from 'node:path';
import type { ProtocolReport } from './quick-check.js';
import type { StepResult } from './step.js';

const SHORT_NAMES: Readonly<Record<string, string>> = {
  'generated files': 'generated',
  'vectors (TypeScript)': 'TS vectors',
  'vectors (Python)': 'Python vectors',
};
const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;
/** Generated files named in the line; the rest are counted. */
const NAMED_FILES = 4;

export function clock(at: Date): string {
  return at.toLocaleTimeString('en-GB', { hour12: false });
}

/** The line for a finished run; `log` is where its full output is. */
export function runLine(at: Date, report: ProtocolReport, log: string): string {
  const head = `${clock(at)} ${report.idl}:`;
  const problems = report.idlProblems;
  if (problems) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (+${problems.length - 1} more in ${log})` : '';
    const where = first
      ? `${report.idl}:${first.line}:${first.column} ${first.pointer || '/'}`
      : '';
    return `${head} IDL error, nothing written: ${where}: ${first?.message ?? ''} (fix: ${first?.hint ?? ''})${more}`;
  }
  const verdict = report.verdict === 'green' ? 'green' : 'FAILED';
  const failed = report.steps.find((s) => s.verdict === 'failed');
  const why = failed ? `: ${shortName(failed)} ${failed.summary}; full output in ${log}` : '';
  return `${head} ${changedPhrase(report.changed)} · ${verdict} in ${report.seconds.toFixed(1)} s [${stepMarks(report.steps)}]${why}`;
}

/** The line for a run that a newer save of the same IDL stopped. */
export function restartLine(at: Date, idl: string, afterSeconds: number): string {
  return `${clock(at)} ${idl}: saved again ${afterSeconds.toFixed(1)} s into the run · restarted`;
}

/** The line for a run that ended without a report (it crashed, or could not start). */
export function crashLine(at: Date, idl: string, exit: string, log: string): string {
  return `${clock(at)} ${idl}: the run ended (${exit}) without a verdict; its output is in ${log}`;
}

function changedPhrase(changed: readonly string[]): string {
  if (changed.length === 0) return 'no generated file changed';
  // The folder too: both languages have a protocol.schema.json.
  const names = changed
    .slice(0, NAMED_FILES)
    .map((path) => `${basename(dirname(path))}/${basename(path)}`);
  const rest = changed.length > NAMED_FILES ? ` +${changed.length - NAMED_FILES} more` : '';
  return `regenerated ${changed.length} file${changed.length === 1 ? '' : 's'} (${names.join(', ')}${rest})`;
}

function stepMarks(steps: readonly StepResult[]): string {
  return steps
    .map(
      (s) =>
        `${shortName(s)} ${MARK[s.verdict]}${s.verdict === 'skipped' ? ` (${s.note ?? 'skipped'})` : ''}`,
    )
    .join(', ');
}

function shortName(step: StepResult): string {
  return SHORT_NAMES[step.name] ?? step.name;
}
