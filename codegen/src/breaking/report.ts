// The breaking report as text for people and as JSON for tools.
import type { BreakingReport } from './against-releases.js';
import { isReportFailing } from './against-releases.js';
import type { Comparison, JudgedFinding } from './compare-idl.js';
import { failingFindings } from './compare-idl.js';
import type { Place } from './findings.js';

export function formatReportJson(report: BreakingReport): string {
  return `${JSON.stringify({ ok: !isReportFailing(report), ...report }, null, 2)}\n`;
}

export function formatReportText(report: BreakingReport): string {
  const lines: string[] = [];
  for (const file of report.released)
    lines.push(`released: ${file.path} (sha256 ${file.sha256.slice(0, 12)}…)`);
  lines.push(...allowListLines(report));
  for (const comparison of report.comparisons) lines.push('', ...comparisonLines(comparison));
  if (report.releaseProblems.length > 0) {
    lines.push('', 'released files:');
    for (const p of report.releaseProblems)
      lines.push(`  ${p.file}: ${p.message}`, `    fix: ${p.fix}`);
  }
  for (const e of report.staleAllowEntries)
    lines.push(
      '',
      `allow-list entry allows nothing (against ${e.against}, ${e.rule} at ${e.pointer}): remove it from ${report.allowList.file}`,
    );
  lines.push('', resultLine(report));
  return `${lines.join('\n')}\n`;
}

function allowListLines(report: BreakingReport): string[] {
  const { file, entries } = report.allowList;
  if (entries.length === 0) return [`allow-list: ${file}, no entries`];
  return [
    `allow-list: ${file}, ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}:`,
    ...entries.map((e) => `  against ${e.against}: ${e.rule} at ${e.pointer} — ${e.reason}`),
  ];
}

function comparisonLines(c: Comparison): string[] {
  const lines = [
    `${c.new.file} (protocol version ${c.new.protocolVersion}, IDL ${c.new.idlVersion}) against ${c.old.file} (protocol version ${c.old.protocolVersion}, IDL ${c.old.idlVersion}):`,
  ];
  for (const f of c.findings.filter((f) => f.severity === 'breaking'))
    lines.push(...breakingLines(f));
  for (const f of c.findings.filter((f) => f.severity === 'compatible'))
    lines.push(`  compatible  ${f.rule}  ${at(f.new)}  ${f.message}`);
  const s = c.semantic;
  const explained = s.crossed - s.unexplained;
  lines.push(
    `  semantic cross-check: ${s.checked} samples (faker, examples, vectors and their neighbours) sent across; ${s.crossed} crossed` +
      (s.crossed > 0 ? `, ${explained} of them explained by a breaking finding` : ''),
  );
  const breaking = c.findings.filter((f) => f.severity === 'breaking');
  const allowed = breaking.length - failingFindings(c).length;
  lines.push(
    `  ${breaking.length} breaking (${allowed} allowed), ${c.findings.length - breaking.length} compatible`,
  );
  return lines;
}

function breakingLines(f: JudgedFinding): string[] {
  const label = f.allowedBy ? 'ALLOWED ' : 'BREAKING';
  return [
    `  ${label} ${f.rule} (breaks ${f.breaks.join(' and ') || 'nobody'})`,
    `    new: ${at(f.new)}`,
    `    old: ${at(f.old)}`,
    `    why: ${f.message}`,
    f.allowedBy ? `    allowed: ${f.allowedBy.reason}` : `    fix: ${f.fix}`,
  ];
}

function at(p: Place): string {
  return `${p.file}:${p.line}:${p.column} ${p.pointer || '/'}`;
}

function resultLine(report: BreakingReport): string {
  const failing = report.comparisons.reduce((n, c) => n + failingFindings(c).length, 0);
  const versions = report.comparisons.map((c) => c.old.protocolVersion).join(', ');
  if (!isReportFailing(report))
    return report.comparisons.length === 0
      ? 'breaking: nothing to compare with (no released version; `idl-gen release` freezes one)'
      : `breaking: ok, nothing breaks peers of protocol version ${versions}`;
  const parts = [
    failing > 0 ? `${failing} breaking change(s)` : '',
    report.releaseProblems.length > 0
      ? `${report.releaseProblems.length} released-file problem(s)`
      : '',
    report.staleAllowEntries.length > 0
      ? `${report.staleAllowEntries.length} stale allow-list entr(ies)`
      : '',
  ].filter(Boolean);
  return `breaking: FAILED, ${parts.join(', ')}; make the change compatible (see each fix), or allow a deliberate break in the allow-list`;
}
