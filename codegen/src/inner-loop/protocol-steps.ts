// The in-process steps of the quick check, on the IDL loaded once: the generated files are
// current (or, for the watcher, written), and nothing breaks a released version. They call what
// `idl-gen generate --check` and `idl-gen breaking` call, without a process each.
import { join } from 'node:path';
import { checkAgainstReleases, isReportFailing } from '../breaking/against-releases.js';
import { loadAllowList } from '../breaking/allow-list.js';
import type { IdlDocument } from '../breaking/document.js';
import { loadIdlDocument } from '../breaking/document.js';
import type { IdlProblem } from '../idl/source.js';
import { IdlError } from '../idl/source.js';
import { formatReportText } from '../breaking/report.js';
import { readVectorSamples } from '../breaking/semantic/vectors.js';
import { REGENERATE_COMMAND } from '../printer/generated-file.js';
import { findDrift, writeOutputs } from '../printer/write.js';
import type { LoadedProtocol } from '../protocols/load-protocol.js';
import { readTargets } from '../protocols/load-protocol.js';
import { locateProtocol } from '../protocols/list.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { generatedLocations } from '../protocols/targets.js';
import { renderProtocol } from '../render.js';
import { cacheStats, isOutputCacheEnabled, resetCacheStats } from './output-cache.js';
import type { StepResult } from './step.js';
import { BREAKING_STEP, GENERATED_STEP, stepResult } from './step.js';

/** The IDL, loaded and checked once for every step; or every problem that stops it loading. */
export function loadDocument(
  root: string,
  idl: string,
): { doc: IdlDocument } | { problems: IdlProblem[] } {
  try {
    return { doc: loadIdlDocument(join(root, idl), idl) };
  } catch (error) {
    if (error instanceof IdlError) return { problems: [...error.problems] };
    throw error;
  }
}

export interface GeneratedOutcome {
  readonly result: StepResult;
  /** Files written (write mode) or out of date (check mode), relative to the root. */
  readonly changed: readonly string[];
}

/** Renders every output of `doc` and compares it with the files under `root`, or writes it there. */
export async function generatedStep(
  root: string,
  doc: IdlDocument,
  mode: 'check' | 'write',
): Promise<GeneratedOutcome> {
  const started = performance.now();
  const idl = doc.source.path;
  resetCacheStats();
  const protocol = protocolOf(root, doc);
  const outputs = await renderProtocol(protocol, root);
  const locations = generatedLocations(protocol.targets);
  const reuse = describeReuse();
  if (mode === 'write') {
    const written = writeOutputs(root, outputs, locations);
    const summary =
      written.length === 0
        ? `all ${outputs.length} files already current${reuse}`
        : `wrote ${written.length} of ${outputs.length} files${reuse}`;
    return {
      result: stepResult(GENERATED_STEP, started, 'passed', summary),
      changed: written.map((d) => d.path),
    };
  }
  const drift = findDrift(root, outputs, locations);
  if (drift.length === 0) {
    const summary = `${outputs.length} files match ${idl}${reuse}`;
    return { result: stepResult(GENERATED_STEP, started, 'passed', summary), changed: [] };
  }
  const detail =
    drift.map((d) => d.diff).join('\n') +
    `\n${drift.map((d) => `  ${d.kind.padEnd(7)} ${d.path}`).join('\n')}`;
  const summary = `${drift.length} file(s) do not match ${idl}: run \`${REGENERATE_COMMAND}\``;
  return {
    result: stepResult(GENERATED_STEP, started, 'failed', summary, detail),
    changed: drift.map((d) => d.path),
  };
}

/** `; reused: datamodel-codegen 1/1, prettier 9/10` — what the output cache saved. */
function describeReuse(): string {
  if (!isOutputCacheEnabled()) return ' (no cache: --full)';
  const parts = [...cacheStats()].map(
    ([kind, { hits, misses }]) => `${kind} ${hits}/${hits + misses}`,
  );
  return parts.length > 0 ? `; outputs reused: ${parts.join(', ')}` : '';
}

/** `pnpm breaking`: the released versions are intact and `doc` breaks none of them. */
export function breakingStep(root: string, doc: IdlDocument): StepResult {
  const started = performance.now();
  const { targets } = protocolOf(root, doc);
  const allowFile = targets.releases.allowList;
  const allowList = loadAllowList(join(root, allowFile), allowFile);
  const vectors = readVectorSamples(targets.vectors ? join(root, targets.vectors) : null);
  const report = checkAgainstReleases(root, targets.releases.dir, doc, allowList, vectors);
  const text = formatReportText(report);
  // The report's last line is its verdict, e.g. "breaking: ok, nothing breaks peers of …".
  const verdict =
    text
      .trimEnd()
      .split('\n')
      .at(-1)
      ?.replace(/^breaking: /, '') ?? '';
  return isReportFailing(report)
    ? stepResult(BREAKING_STEP, started, 'failed', verdict, text)
    : stepResult(BREAKING_STEP, started, 'passed', verdict);
}

/** The protocol whose IDL `doc` was loaded from, with its targets, as the emitters take it. */
export function protocolOf(root: string, doc: IdlDocument): LoadedProtocol {
  const location = locateProtocol(root, doc.source.path);
  const targets: ProtocolTargets = readTargets(root, location);
  return { location, targets, model: doc.model };
}
