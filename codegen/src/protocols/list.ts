// The repository's protocols, found by convention: `protocol.idl.json` at the root, and
// `protocols/<name>/protocol.idl.json` for every other one, each with `protocol.targets.json`
// beside it (and `protocol.import.json` when its IDL is imported from a published schema).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const IDL_FILE = 'protocol.idl.json';
export const TARGETS_FILE = 'protocol.targets.json';
export const IMPORT_FILE = 'protocol.import.json';
export const PROTOCOLS_DIR = 'protocols';

/** A repository whose protocol files are not laid out as the convention says (a missing targets file). */
export class ProtocolLayoutError extends Error {
  override readonly name = 'ProtocolLayoutError';
}

/** Where one protocol's files are; every path is relative to the repository root. */
export interface ProtocolLocation {
  /** Its `--protocol` name: the targets file's `name` at the root, the folder's name otherwise. */
  readonly name: string;
  /** Its folder: `''` for the root protocol, `protocols/<name>` otherwise. */
  readonly dir: string;
  readonly idlPath: string;
  readonly targetsPath: string;
  /** The import settings, when the IDL is imported from a published schema; else null. */
  readonly importPath: string | null;
}

/**
 * Every protocol of the repository at `root`: the root one first, then protocols/* by name.
 * A folder under protocols/ without an IDL (or import settings, which make one) is skipped; a protocol whose targets file is missing
 * is reported, since nothing could be generated from it.
 */
export function listProtocols(root: string): ProtocolLocation[] {
  const found: ProtocolLocation[] = [];
  if (existsSync(join(root, IDL_FILE))) found.push(locationOf(root, '', rootName(root)));
  const folder = join(root, PROTOCOLS_DIR);
  if (!existsSync(folder)) return found;
  for (const name of readdirSync(folder).sort()) {
    const dir = `${PROTOCOLS_DIR}/${name}`;
    if (!statSync(join(root, dir)).isDirectory()) continue;
    // An imported protocol is listed before its first import, so `idl-gen import` finds it.
    const hasIdl = [IDL_FILE, IMPORT_FILE].some((file) => existsSync(join(root, dir, file)));
    if (!hasIdl) continue;
    found.push(locationOf(root, dir, name));
  }
  return found;
}

/**
 * The protocol whose IDL is `idlPath` (relative to the root), located alone: a sibling folder laid
 * out wrongly does not stop it (the inner loop checks one protocol per save).
 */
export function locateProtocol(root: string, idlPath: string): ProtocolLocation {
  if (idlPath === IDL_FILE) return locationOf(root, '', rootName(root));
  const dir = idlPath.slice(0, -(IDL_FILE.length + 1));
  return locationOf(root, dir, dir.slice(PROTOCOLS_DIR.length + 1));
}

function locationOf(root: string, dir: string, name: string): ProtocolLocation {
  const at = (file: string) => (dir === '' ? file : `${dir}/${file}`);
  const targetsPath = at(TARGETS_FILE);
  if (!existsSync(join(root, targetsPath)))
    throw new ProtocolLayoutError(
      `${at(IDL_FILE)} has no ${TARGETS_FILE} beside it: add one (see codegen/targets.schema.json and docs/adding-a-protocol.md)`,
    );
  const importPath = existsSync(join(root, at(IMPORT_FILE))) ? at(IMPORT_FILE) : null;
  return { name, dir, idlPath: at(IDL_FILE), targetsPath, importPath };
}

/** The root protocol's name is its targets file's `name` (read without the full check). */
function rootName(root: string): string {
  const path = join(root, TARGETS_FILE);
  if (!existsSync(path))
    throw new ProtocolLayoutError(
      `${IDL_FILE} has no ${TARGETS_FILE} beside it: add one (see codegen/targets.schema.json)`,
    );
  const name = (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name;
  if (typeof name !== 'string')
    throw new ProtocolLayoutError(
      `${TARGETS_FILE}: "name" is missing (see codegen/targets.schema.json)`,
    );
  return name;
}

/** The protocols `--protocol` selects: all of them when `name` is undefined. */
export function selectProtocols(
  all: readonly ProtocolLocation[],
  name: string | undefined,
): ProtocolLocation[] {
  if (name === undefined) return [...all];
  const chosen = all.filter((p) => p.name === name);
  if (chosen.length === 0)
    throw new Error(`unknown protocol '${name}' (protocols: ${all.map((p) => p.name).join(', ')})`);
  return chosen;
}
