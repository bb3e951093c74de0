// `pnpm breaking`: the released files are intact and still load with today's loader (the IDL format
// only evolves additively), and today's IDL breaks none of them.
import { join } from 'node:path';
import { IdlError } from '../idl/source.js';
import type { ReleaseProblem, ReleasedFile } from '../release/released-files.js';
import { verifyReleasedFiles } from '../release/released-files.js';
import type { AllowEntry, AllowList } from './allow-list.js';
import type { Comparison } from './compare-idl.js';
import { compareIdl, failingFindings } from './compare-idl.js';
import type { IdlDocument } from './document.js';
import { loadIdlDocument } from './document.js';
import type { SamplesByLabel } from './semantic/vectors.js';

export interface BreakingReport {
  readonly released: readonly ReleasedFile[];
  readonly releaseProblems: readonly ReleaseProblem[];
  readonly allowList: AllowList;
  readonly comparisons: readonly Comparison[];
  /** Entries for a compared version that let nothing through. */
  readonly staleAllowEntries: readonly AllowEntry[];
}

export function checkAgainstReleases(
  root: string,
  releasesDir: string,
  current: IdlDocument,
  allowList: AllowList,
  vectors: SamplesByLabel,
): BreakingReport {
  const { files, problems } = verifyReleasedFiles(root, releasesDir);
  const releaseProblems = [...problems];
  const comparisons: Comparison[] = [];
  for (const file of files) {
    if (problems.some((p) => p.file === file.path)) continue;
    const released = loadReleased(root, file, releaseProblems);
    if (released) comparisons.push(compareIdl(released, current, { vectors, allowList }));
  }
  return {
    released: files,
    releaseProblems,
    allowList,
    comparisons,
    staleAllowEntries: staleEntries(allowList, comparisons),
  };
}

export function checkPair(
  old: IdlDocument,
  next: IdlDocument,
  allowList: AllowList,
  vectors: SamplesByLabel,
): BreakingReport {
  const comparisons = [compareIdl(old, next, { vectors, allowList })];
  return {
    released: [],
    releaseProblems: [],
    allowList,
    comparisons,
    staleAllowEntries: staleEntries(allowList, comparisons),
  };
}

export function isReportFailing(report: BreakingReport): boolean {
  return (
    report.releaseProblems.length > 0 ||
    report.staleAllowEntries.length > 0 ||
    report.comparisons.some((c) => failingFindings(c).length > 0)
  );
}

function loadReleased(
  root: string,
  file: ReleasedFile,
  problems: ReleaseProblem[],
): IdlDocument | null {
  try {
    const doc = loadIdlDocument(join(root, file.path), file.path);
    if (doc.version === file.version) return doc;
    problems.push({
      file: file.path,
      message: `says meta.protocolVersion ${doc.version}`,
      fix: `a released file is named after its protocol version; restore ${file.path} from git`,
    });
  } catch (error) {
    if (!(error instanceof IdlError)) throw error;
    problems.push({
      file: file.path,
      message: `no longer loads with the current loader:\n${error.message}`,
      fix: 'the IDL format may only evolve additively: make the new meta-schema member or check optional, so every released file still loads',
    });
  }
  return null;
}

function staleEntries(list: AllowList, comparisons: readonly Comparison[]): AllowEntry[] {
  const compared = new Set(comparisons.map((c) => c.old.protocolVersion));
  const used = new Set(comparisons.flatMap((c) => c.findings.map((f) => f.allowedBy)));
  return list.entries.filter((e) => compared.has(e.against) && !used.has(e));
}
