// The repository's protocols, found by convention: `protocol.idl.json` at the root, and one
// `protocols/<name>/protocol.idl.json` per further protocol. Listed again on every call, so a
// folder added later is found without a change here. A stand-in for the codegen's own list of
// protocols (issue 26), whose `idlPath` and `name` it matches.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT_IDL = 'protocol.idl.json';
export const PROTOCOLS_DIR = 'protocols';
export const IDL_FILE_NAME = 'protocol.idl.json';

export interface ProtocolSource {
  /** The IDL, relative to the repository root, with `/`: how every message names the protocol. */
  readonly idlPath: string;
  /** The folder under protocols/ (what `--protocol NAME` takes); null for the root protocol. */
  readonly name: string | null;
}

/** The root protocol (when its IDL exists), then protocols/<name>/ in name order. */
export function listProtocols(root: string): ProtocolSource[] {
  const found: ProtocolSource[] = [];
  if (existsSync(join(root, ROOT_IDL))) found.push({ idlPath: ROOT_IDL, name: null });
  const dir = join(root, PROTOCOLS_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return found;
  for (const name of readdirSync(dir).sort()) {
    const idlPath = `${PROTOCOLS_DIR}/${name}/${IDL_FILE_NAME}`;
    if (existsSync(join(root, idlPath))) found.push({ idlPath, name });
  }
  return found;
}
