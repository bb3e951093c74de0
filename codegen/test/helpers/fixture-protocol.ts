// A fixture IDL with the repository's root targets (its folders and names), ready for an emitter.
import { fileURLToPath } from 'node:url';
import type { EmitContext } from '../../src/emit/emitter.js';
import { loadIdlFile } from '../../src/idl/load.js';
import { listProtocols } from '../../src/protocols/list.js';
import { readTargets } from '../../src/protocols/load-protocol.js';
import type { ProtocolTargets } from '../../src/protocols/targets.js';
import { buildSchemaBundle } from '../../src/schema/bundle.js';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/** The root protocol's targets (protocol.targets.json), as fixtures are generated for. */
export function rootTargets(): ProtocolTargets {
  const [root] = listProtocols(REPO);
  if (!root) throw new Error('no root protocol');
  return readTargets(REPO, root);
}

/** The path of `codegen/test/fixtures/<name>.idl.json`. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}.idl.json`, import.meta.url));
}

/** What an emitter gets for a fixture: its model, its bundle and the root targets. */
export function fixtureContext(name: string, target = rootTargets()): EmitContext {
  const model = loadIdlFile(fixturePath(name));
  return { model, bundle: buildSchemaBundle(model, target.schemaId), target };
}
