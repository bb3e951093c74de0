// `--transcripts DIR`: each failing case's traffic in the trace format (dsh-sdk view reads it),
// one file per peer the case started, with the peer's stderr beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult } from '../results.js';

/** Writes the transcripts of the cases with a failure; returns the files written. */
export function writeTranscripts(dir: string, cases: readonly CaseResult[]): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const c of cases) {
    if (![...c.outcomes.values()].some((o) => o.outcome === 'FAIL')) continue;
    c.transcripts.forEach((records, i) => {
      const name = c.transcripts.length === 1 ? c.id : `${c.id}-${i + 1}`;
      const path = join(dir, `${name}.trace.ndjson`);
      writeFileSync(path, records.map((r) => `${r}\n`).join(''));
      written.push(path);
    });
    if (c.stderrTail !== '') writeFileSync(join(dir, `${c.id}.stderr.txt`), c.stderrTail);
  }
  return written;
}
