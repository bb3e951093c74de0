// The whole runtime kit against both reference runtimes, and against one playing version 1,
// with an empty baseline: conformant, with every report written and valid.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PY_RUNTIME, TS_RUNTIME } from '../helpers/cli.js';
import { budgetMs } from '../helpers/time-budget.js';
import { PYTHON, ROUTE, failing, runKit, validateReport } from './helpers.js';

/** The liveness bound, scaled for a loaded machine (CI: 3 × 10 s). */
export const TIMEOUT = ['--timeout', String(budgetMs(10_000) / 1000)];

/** The counts of a JUnit file, read by a real XML parser (Python's). */
function junitCounts(path: string): {
  tests: number;
  failures: number;
  skipped: number;
  cases: number;
} {
  const script =
    'import sys, json, xml.etree.ElementTree as ET\nroot = ET.parse(sys.argv[1]).getroot()\nprint(json.dumps({k: int(root.get(k)) for k in ("tests", "failures", "skipped")} | {"cases": len(root.findall(".//testcase"))}))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script, path], { encoding: 'utf8' })) as ReturnType<
    typeof junitCounts
  >;
}

describe('dsh-sdk conformance runtime on the reference runtimes', () => {
  it.concurrent.each([
    ['the TypeScript runtime', [TS_RUNTIME], 2],
    ['the Python runtime', [PY_RUNTIME], 2],
    ['the TypeScript runtime playing version 1', [TS_RUNTIME, '--protocol-version', '1'], 1],
  ] as const)('%s is conformant with an empty baseline', async (_name, command, version) => {
    const junitPath = join(
      process.env['TMPDIR'] ?? '/tmp',
      `dsh-junit-${process.pid}-${version}-${command.length}.xml`,
    );
    const baseline = `${junitPath}.baseline.json`;
    writeFileSync(baseline, '{"expectedFailures": []}\n');
    const run = await runKit([
      'runtime',
      ...ROUTE,
      ...TIMEOUT,
      '--jobs',
      '2',
      '--expected-failures',
      baseline,
      '--junit',
      junitPath,
      '--',
      ...command,
    ]);
    const report = run.report();
    expect(failing(report), run.stdout).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\nconformant\n$/);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(report.run['protocolVersion']).toBe(version);
    const capability = report.requirements.filter((r) => r.tier === 'CAPABILITY');
    expect(capability.length).toBeGreaterThan(10);
    expect(new Set(capability.map((r) => r.outcome))).toEqual(
      new Set([version === 1 ? 'SKIP' : 'PASS']),
    );
    const mandatory = report.requirements.filter((r) => r.tier === 'MANDATORY');
    expect(mandatory.filter((r) => r.outcome === 'PASS').length).toBeGreaterThan(45);
    const junit = junitCounts(junitPath);
    expect(junit).toEqual({
      tests: report.requirements.length,
      failures: 0,
      skipped: junit.skipped,
      cases: report.requirements.length,
    });
    expect(junit.skipped).toBe(report.requirements.filter((r) => r.outcome === 'SKIP').length);
  });
});
