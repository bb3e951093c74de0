// The pinned source schema: a file of an npm package, resolved from the workspace package that has
// it as a dev dependency; the installed version must be the pinned one.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SchemaNode } from '../idl/model.js';
import type { ImportSettings } from './settings.js';

/** A JSON Schema document: definitions under `$defs` (2019-09 and later) or `definitions`. */
export interface SourceSchema {
  /** `package@version file`, as messages and the IDL's `$comment` name it. */
  readonly label: string;
  readonly document: SchemaNode;
  readonly definitions: Readonly<Record<string, SchemaNode>>;
  /** The prefix of a reference to a definition: `#/$defs/` or `#/definitions/`. */
  readonly refPrefix: string;
}

/** A problem with the source itself (not installed, another version): what to run. */
export class SourceSchemaError extends Error {
  override readonly name = 'SourceSchemaError';
}

export function readSourceSchema(root: string, settings: ImportSettings): SourceSchema {
  const { package: name, version, file, resolveFrom } = settings.source;
  const label = `${name}@${version} ${file}`;
  const manifest = locateManifest(root, resolveFrom, name);
  const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
  if (installed !== version)
    throw new SourceSchemaError(
      `${settings.path} pins ${name}@${version}, but ${resolveFrom} has ${installed ?? 'no version'} installed: pin "${name}": "${version}" in ${resolveFrom}/package.json devDependencies and run \`pnpm install\``,
    );
  const path = join(dirname(manifest), file);
  if (!existsSync(path))
    throw new SourceSchemaError(
      `${label}: the package has no ${file}; fix source.file in ${settings.path}`,
    );
  const document = JSON.parse(readFileSync(path, 'utf8')) as SchemaNode;
  const isDefs = typeof document['$defs'] === 'object';
  const definitions = (isDefs ? document['$defs'] : document['definitions']) as Record<
    string,
    SchemaNode
  >;
  if (!definitions)
    throw new SourceSchemaError(`${label} has neither $defs nor definitions: nothing to import`);
  return { label, document, definitions, refPrefix: isDefs ? '#/$defs/' : '#/definitions/' };
}

function locateManifest(root: string, resolveFrom: string, name: string): string {
  const require = createRequire(join(root, resolveFrom, 'package.json'));
  try {
    return require.resolve(`${name}/package.json`);
  } catch {
    // Packages whose exports map hides package.json: walk up from the main entry.
    try {
      let dir = dirname(require.resolve(name));
      while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
      return join(dir, 'package.json');
    } catch {
      throw new SourceSchemaError(
        `${name} is not installed in ${resolveFrom}: add it to its devDependencies and run \`pnpm install\``,
      );
    }
  }
}
