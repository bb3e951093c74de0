/// <reference types="node" preserve="true" />
// The options both `dsh-sdk conformance runtime` and `… client` take, parsed strictly.
import { availableParallelism } from 'node:os';
import { integerOption, UsageError } from '../cli-args.js';
import type { Selection } from './selection.js';

export const COMMON_OPTIONS = {
  env: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  jobs: { type: 'string' },
  list: { type: 'boolean' },
  'report-json': { type: 'string' },
  junit: { type: 'string' },
  transcripts: { type: 'string' },
  'expected-failures': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const COMMON_HELP = `  --env KEY=VALUE           set a variable in the environment of what the kit starts
                            (repeatable)
  --only GLOB               run only the cases whose id, or one of whose requirements'
                            ids, matches (repeatable; * and ? as usual)
  --skip GLOB               leave out the cases whose id matches (repeatable)
  --timeout S               the liveness bound in seconds (default 10): how long an
                            answer, an exit or a turn's end may take; long cases get
                            several, and the bounds the protocol states scale with it
  --jobs N                  cases run at once (default: the number of CPUs)
  --list                    list the requirements and the cases, and exit
  --report-json FILE        write the report as JSON (its schema: conformance-report.schema.json)
  --junit FILE              write the report as JUnit XML, one test case per requirement
  --transcripts DIR         write each failing case's traffic in the trace format
                            (dsh-sdk view DIR/<case>.trace.ndjson)
  --expected-failures FILE  a baseline: {"expectedFailures": [{"id", "reason"}]}; an id
                            is a requirement or a case. Listed failures do not fail the
                            run; a listed entry that passes, or an unknown id, does
  -h, --help                show this help`;

export interface CommonOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly selection: Selection;
  readonly liveMs: number;
  readonly jobs: number;
  readonly list: boolean;
  readonly reportJson?: string;
  readonly junit?: string;
  readonly transcripts?: string;
  readonly expectedFailures?: string;
}

/** The bound the others scale from: `--timeout`'s default. */
export const DEFAULT_TIMEOUT_S = 10;

interface CommonValues {
  env?: string[];
  only?: string[];
  skip?: string[];
  timeout?: string;
  jobs?: string;
  list?: boolean;
  'report-json'?: string;
  junit?: string;
  transcripts?: string;
  'expected-failures'?: string;
}

function parseEnv(pairs: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env ${pair}: expected KEY=VALUE`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds, got ${raw}`);
  return Math.round(seconds * 1000);
}

export function readCommonOptions(values: CommonValues): CommonOptions {
  const optional = <K extends string>(key: K, value: string | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    env: parseEnv(values.env ?? []),
    selection: { only: values.only ?? [], skip: values.skip ?? [] },
    liveMs: parseTimeout(values.timeout),
    jobs: integerOption('jobs', values.jobs, 1) ?? availableParallelism(),
    list: values.list === true,
    ...optional('reportJson', values['report-json']),
    ...optional('junit', values.junit),
    ...optional('transcripts', values.transcripts),
    ...optional('expectedFailures', values['expected-failures']),
  };
}
