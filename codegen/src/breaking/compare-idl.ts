// One comparison, whole: structural findings, the semantic cross-check (a crossing no breaking
// finding explains is a rules bug), and the allow-list applied.
import type { AllowEntry, AllowList } from './allow-list.js';
import { allowingEntry } from './allow-list.js';
import { compareStructure } from './compare.js';
import type { PositionPair } from './compare-methods.js';
import type { IdlDocument } from './document.js';
import type { CompatFinding } from './findings.js';
import { place } from './findings.js';
import { RULES } from './rules.js';
import type { Crossing } from './semantic/cross-check.js';
import { crossCheck } from './semantic/cross-check.js';
import type { SamplesByLabel } from './semantic/vectors.js';

export interface JudgedFinding extends CompatFinding {
  /** The allow-list entry that lets this breaking finding through. */
  readonly allowedBy: AllowEntry | null;
}

export interface DocumentSummary {
  readonly file: string;
  readonly protocolVersion: number;
  readonly idlVersion: string;
}

export interface Comparison {
  readonly old: DocumentSummary;
  readonly new: DocumentSummary;
  readonly findings: readonly JudgedFinding[];
  readonly semantic: {
    readonly checked: number;
    readonly crossed: number;
    readonly unexplained: number;
  };
}

export interface CompareOptions {
  readonly vectors: SamplesByLabel;
  readonly allowList: AllowList;
  /** Faker samples per position and direction. */
  readonly samples?: number;
  readonly seed?: number;
}

export function compareIdl(
  old: IdlDocument,
  next: IdlDocument,
  options: CompareOptions,
): Comparison {
  const structural = compareStructure(old, next);
  const semantic = crossCheck(old, next, structural.pairs, {
    vectors: options.vectors,
    samples: options.samples ?? 24,
    seed: options.seed ?? 1,
  });
  const explained = new Set(
    structural.findings.filter((f) => f.severity === 'breaking').flatMap((f) => f.via),
  );
  const unexplained = semantic.crossings.filter((c) => !explained.has(c.label));
  const bugs = firstPerLabel(unexplained).map((c) => rulesBug(old, next, c, structural.pairs));
  const findings = [...structural.findings, ...bugs].map((f) => ({
    ...f,
    allowedBy: f.severity === 'breaking' ? allowingEntry(options.allowList, f, old.version) : null,
  }));
  return {
    old: summarize(old),
    new: summarize(next),
    findings,
    semantic: {
      checked: semantic.checked,
      crossed: semantic.crossings.length,
      unexplained: unexplained.length,
    },
  };
}

/** Breaking findings the allow-list does not let through. */
export function failingFindings(comparison: Comparison): JudgedFinding[] {
  return comparison.findings.filter((f) => f.severity === 'breaking' && f.allowedBy === null);
}

function summarize(doc: IdlDocument): DocumentSummary {
  return {
    file: doc.source.path,
    protocolVersion: doc.version,
    idlVersion: doc.model.meta.version,
  };
}

function firstPerLabel(crossings: readonly Crossing[]): Crossing[] {
  return crossings.filter((c, i) => crossings.findIndex((d) => d.label === c.label) === i);
}

function rulesBug(
  old: IdlDocument,
  next: IdlDocument,
  c: Crossing,
  pairs: readonly PositionPair[],
): CompatFinding {
  const pair = pairs.find((p) => p.position.label === c.label);
  const sample = truncate(JSON.stringify(c.sample), 200);
  const route =
    c.polarity === 'oldSends'
      ? 'valid for the old version, rejected by the new one'
      : `valid for the new version as version ${old.version} peers see it, rejected by the old one`;
  return {
    rule: 'rules-bug',
    severity: 'breaking',
    breaks: pair ? [pair.position.consumer] : [],
    old: place(old, pair?.old.pointer ?? ''),
    new: place(next, pair?.new.pointer ?? ''),
    message: `a ${c.source} sample of ${c.typeName} in ${c.label} crosses with no structural finding: ${sample} is ${route} (${c.violation}).`,
    fix: RULES['rules-bug'].fix,
    via: [c.label],
  };
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}
