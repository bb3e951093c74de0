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

/**
 * Every TypeScript and docs output of a fixture, formatted as `pnpm generate` formats them, by
 * file name (`types.gen.ts`, `protocol.md`). The fixture gets the root targets without Python.
 */
export async function renderFixture(name: string): Promise<Map<string, string>> {
  const { renderProtocol } = await import('../../src/render.js');
  const targets = { ...rootTargets(), python: null };
  const location = {
    name,
    dir: '',
    idlPath: 'protocol.idl.json',
    targetsPath: 'protocol.targets.json',
    importPath: null,
  };
  const outputs = await renderProtocol(
    { location, targets, model: loadIdlFile(fixturePath(name)) },
    REPO,
  );
  return new Map(outputs.map((o) => [o.path.slice(o.path.lastIndexOf('/') + 1), o.content]));
}

/** The validators a fixture's ts-validators output exports, loaded as the generated module. */
export async function fixtureValidators(outputs: Map<string, string>): Promise<
  Record<
    string,
    ((value: unknown) => boolean) & {
      errors?: { instancePath: string; keyword: string; message?: string }[] | null;
    }
  >
> {
  const code = outputs.get('validators.gen.js') ?? '';
  return (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as never;
}
