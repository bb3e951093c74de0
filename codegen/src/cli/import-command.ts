// `idl-gen import [--check]`: each imported protocol's IDL from its pinned source schema.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findImportDrift, IMPORT_COMMAND, importProtocol } from '../import/run-import.js';
import type { ProtocolLocation } from '../protocols/list.js';
import { listProtocols, selectProtocols } from '../protocols/list.js';
import type { Command, OptionValues } from './command.js';
import { rootOption, UsageError } from './command.js';

export const importCommand: Command = {
  name: 'import',
  summary: "import a protocol's IDL from its pinned JSON Schema (--check: compare only)",
  help: `Usage: idl-gen import [--check] [--protocol NAME] [--root DIR]

For each protocol with a protocol.import.json beside its IDL: reads the JSON Schema that file pins
(a file of an npm package installed as a dev dependency), turns the definitions that carry method and
side annotations, and everything they reach, into the IDL format, checks the result as \`generate\`
checks an IDL, and writes it as the protocol's protocol.idl.json. The same input always gives the same
file. Then run \`pnpm generate\`.

Options:
  --check          write nothing; exit 1 with a diff when the committed IDL is not what importing gives
  --protocol NAME  only this protocol (default: every protocol with a protocol.import.json)
  --root DIR       the repository (default: this one)
  -h, --help       show this help
`,
  options: { check: { type: 'boolean' }, protocol: { type: 'string' }, root: { type: 'string' } },
  run: runImport,
};

async function runImport(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  const imported = importedProtocols(root, values);
  if (values['check'] === true) {
    const drift = (await Promise.all(imported.map((p) => findImportDrift(root, p)))).filter(
      (d) => d !== null,
    );
    for (const d of drift) process.stderr.write(`\n${d.diff}`);
    if (drift.length === 0) {
      process.stdout.write(
        `import:check: ${imported.map((p) => p.idlPath).join(', ')} match their sources\n`,
      );
      return 0;
    }
    process.stderr.write(
      `\nimport:check: ${drift.map((d) => d.path).join(', ')} not what importing gives: run \`${IMPORT_COMMAND}\`, then \`pnpm generate\`, and commit the result.\n`,
    );
    return 1;
  }
  for (const location of imported) {
    const result = await importProtocol(root, location);
    writeFileSync(join(root, result.idlPath), result.text);
    process.stdout.write(
      `import: ${result.idlPath} from ${result.source}: ${result.methodCount} methods, ${result.typeCount} types\n`,
    );
  }
  process.stdout.write('next: run `pnpm generate`\n');
  return 0;
}

function importedProtocols(root: string, values: OptionValues): ProtocolLocation[] {
  const name = typeof values['protocol'] === 'string' ? values['protocol'] : undefined;
  let chosen: ProtocolLocation[];
  try {
    chosen = selectProtocols(listProtocols(root), name);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), 'import');
  }
  const imported = chosen.filter((p) => p.importPath !== null);
  if (name !== undefined && imported.length === 0)
    throw new UsageError(
      `protocol ${name} has no protocol.import.json: it is not imported`,
      'import',
    );
  return imported;
}
