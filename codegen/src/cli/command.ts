// One subcommand of `idl-gen`: its options (node:util parseArgs, strict), its help text and its run.
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LoadedProtocol } from '../protocols/load-protocol.js';
import { loadProtocols } from '../protocols/load-protocol.js';
import type { ProtocolLocation } from '../protocols/list.js';
import { listProtocols, selectProtocols } from '../protocols/list.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text, options included. */
  readonly help: string;
  readonly options: OptionSpecs;
  run(values: OptionValues): Promise<number>;
}

/** A mistake on the command line: reported with the way to get help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly command: string | null,
  ) {
    super(message);
  }
}

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

const HELP_OPTION: OptionSpecs = { help: { type: 'boolean', short: 'h' } };

/** Parses a command's arguments strictly: an unknown option or a stray argument is a UsageError. */
export function parseCommandArgs(command: Command, argv: readonly string[]): OptionValues {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { ...command.options, ...HELP_OPTION },
      strict: true,
      allowPositionals: false,
    });
    return values as OptionValues;
  } catch (error) {
    throw new UsageError(describeParseError(error), command.name);
  }
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${quoted ?? message}'`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted ?? message}'`;
    default:
      return message.replace(/^Option /, 'option ');
  }
}

/** A path the user gave, relative to the working directory; or the default, relative to `root`. */
export function pathOption(
  value: string | boolean | undefined,
  root: string,
  fallback: string,
): string {
  return typeof value === 'string' ? resolve(value) : resolve(root, fallback);
}

export function rootOption(values: OptionValues): string {
  return typeof values['root'] === 'string' ? resolve(values['root']) : REPO_ROOT;
}

/** `--idl FILE` as an absolute path, or null. */
export function idlOverride(values: OptionValues): string | null {
  return typeof values['idl'] === 'string' ? resolve(values['idl']) : null;
}

/**
 * The protocols `--protocol NAME` selects (all by default), loaded. `--idl FILE` replaces one
 * protocol's IDL, so it needs `--protocol` unless the repository has only one.
 */
export function loadSelectedProtocols(
  values: OptionValues,
  root: string,
  command: string,
): LoadedProtocol[] {
  const idl = idlOverride(values);
  const all = listProtocols(root);
  let name = typeof values['protocol'] === 'string' ? values['protocol'] : undefined;
  if (idl !== null && name === undefined) {
    if (all.length > 1)
      throw new UsageError('--idl reads one protocol: name it with --protocol NAME', command);
    name = all[0]?.name;
  }
  checkSelection(all, name, command);
  return loadProtocols(root, name, idl);
}

/** The one protocol a command works on: `--protocol NAME`, or the root protocol. */
export function selectedProtocol(
  values: OptionValues,
  root: string,
  command: string,
): ProtocolLocation {
  const all = listProtocols(root);
  const name = typeof values['protocol'] === 'string' ? values['protocol'] : all[0]?.name;
  const [chosen] = checkSelection(all, name, command);
  if (!chosen) throw new UsageError(`no protocol.idl.json in ${root}`, command);
  return chosen;
}

function checkSelection(
  all: readonly ProtocolLocation[],
  name: string | undefined,
  command: string,
): ProtocolLocation[] {
  try {
    return selectProtocols(all, name);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), command);
  }
}

/** How a file is named in messages: relative to the working directory when it is below it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
