// The line a driver prints for each scenario (docs/conformance.md, "Writing a driver"):
// {"scenario", "finalText", "finishReason", "eventTypes", "errors": [{"stage", "class", "code", "message"}]}.
import { isObject } from '../runtime/server-line.js';

/** The error classes a driver maps its client's errors to. */
export const ERROR_CLASSES = [
  'runtime-exited',
  'rpc-error',
  'capability-missing',
  'aborted',
  'timeout',
  'protocol-error',
  'other',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface DriverError {
  /** Where it happened: `spawn`, `run`, `close`, `shutdown`. */
  readonly stage: string;
  readonly class: ErrorClass;
  /** The JSON-RPC code, for `rpc-error`. */
  readonly code: number | null;
  readonly message: string;
}

export interface DriverOutput {
  readonly scenario: string;
  readonly finalText: string | null;
  readonly finishReason: string | null;
  readonly eventTypes: readonly string[];
  readonly errors: readonly DriverError[];
}

/** The last line of the driver's stdout that is its result, or why there is none. */
export function readDriverOutput(stdout: string, scenario: string): DriverOutput | string {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch {
      continue;
    }
    if (!isObject(value) || value['scenario'] === undefined) continue;
    if (value['scenario'] !== scenario)
      return `the driver printed the result of scenario ${JSON.stringify(value['scenario'])}, not ${scenario}`;
    const errors = Array.isArray(value['errors']) ? value['errors'] : [];
    const problem = errors.find(
      (e) =>
        !isObject(e) ||
        !ERROR_CLASSES.includes(e['class'] as ErrorClass) ||
        typeof e['message'] !== 'string',
    );
    if (problem !== undefined)
      return `the driver reported an error that is not {stage, class (one of ${ERROR_CLASSES.join(', ')}), code, message}: ${JSON.stringify(problem)}`;
    return {
      scenario,
      finalText: typeof value['finalText'] === 'string' ? value['finalText'] : null,
      finishReason: typeof value['finishReason'] === 'string' ? value['finishReason'] : null,
      eventTypes: Array.isArray(value['eventTypes']) ? value['eventTypes'].map(String) : [],
      errors: errors as DriverError[],
    };
  }
  return 'the driver printed no result line ({"scenario": …})';
}

export function hasError(out: DriverOutput, stage: string, errorClass: ErrorClass): boolean {
  return out.errors.some((e) => e.stage === stage && e.class === errorClass);
}
