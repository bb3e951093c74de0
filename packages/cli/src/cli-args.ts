// The verbs' shared argument handling: node:util parseArgs in strict mode, `--help` everywhere,
// usage errors that name the problem and exit 2.
/// <reference types="node" preserve="true" />
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** A command-line mistake: printed with the verb's name and a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses a verb's arguments strictly: unknown options and missing values are usage errors. */
export function parseVerbArgs<T extends Options>(
  args: readonly string[],
  options: T,
  allowPositionals: boolean,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: boolean }>> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A positive integer option, or undefined when absent. */
export function integerOption(
  name: string,
  value: string | undefined,
  min: number,
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    throw new UsageError(`--${name} must be an integer of at least ${min}, got ${value}`);
  }
  return parsed;
}

/** The runtime command after `--`: at least a program name. */
export function runtimeCommand(positionals: readonly string[], verb: string): [string, string[]] {
  const [program, ...args] = positionals;
  if (program === undefined) {
    throw new UsageError(
      `give the runtime command after --, e.g. dsh-sdk ${verb} -- bin/dsh-sdk-runtime`,
    );
  }
  return [program, args];
}
