// `idl-gen generate [--check]`: every protocol's emitters, written to disk or compared with it.
import { findImportDrift, IMPORT_COMMAND } from '../import/run-import.js';
import type { Drift } from '../printer/write.js';
import { FormatPool } from '../printer/format-pool.js';
import { REGENERATE_COMMAND } from '../printer/generated-file.js';
import { findDrift, writeOutputs } from '../printer/write.js';
import { generatedLocations } from '../protocols/targets.js';
import type { LoadedProtocol } from '../protocols/load-protocol.js';
import { runWatcher } from '../inner-loop/watch.js';
import { renderProtocol } from '../render.js';
import type { Command, OptionValues } from './command.js';
import { UsageError, loadSelectedProtocols, rootOption } from './command.js';

export const generateCommand: Command = {
  name: 'generate',
  summary: 'run every emitter and write the generated files (--check: compare only)',
  help: `Usage: idl-gen generate [--check | --watch] [--protocol NAME] [--idl FILE] [--root DIR]

Loads and checks each protocol's IDL (protocol.idl.json at the root, protocols/<name>/protocol.idl.json
for the others), runs the emitters of the targets its protocol.targets.json names and writes the files
that changed, deleting stale files in its generated folders. With --check, an imported protocol's IDL
(one with a protocol.import.json) is also compared with a fresh import of its pinned schema.

Options:
  --check          write nothing; exit 1 with a diff of every stale file, imported IDLs included
                   (pnpm generate:check)
  --watch          watch every IDL of the repository; on each save regenerate its protocol and
                   rerun its quick check, one line per save (pnpm dev); Ctrl-C stops
  --protocol NAME  only this protocol (default: every protocol of the repository)
  --idl FILE       read the selected protocol's IDL from FILE (needs one protocol)
  --root DIR       the repository to write into (default: this repository)
  -h, --help       show this help
`,
  options: {
    check: { type: 'boolean' },
    watch: { type: 'boolean' },
    protocol: { type: 'string' },
    idl: { type: 'string' },
    root: { type: 'string' },
  },
  run: runGenerate,
};

interface Rendered {
  readonly protocol: LoadedProtocol;
  readonly outputs: Awaited<ReturnType<typeof renderProtocol>>;
}

async function runGenerate(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  if (values['watch'] === true) {
    if (values['check'] === true || values['idl'] !== undefined || values['protocol'] !== undefined)
      throw new UsageError(
        '--watch watches every IDL and writes: drop --check, --idl and --protocol',
        'generate',
      );
    return runWatcher(root);
  }
  const protocols = loadSelectedProtocols(values, root, 'generate');
  // Rendered together, formatted on one pool of workers: one protocol's waits (datamodel-codegen,
  // formatting) overlap the other's work.
  const pool = new FormatPool(root);
  const rendering = Promise.all(
    protocols.map(async (protocol) => ({
      protocol,
      outputs: await renderProtocol(protocol, root, pool),
    })),
  ).finally(() => pool.close());
  if (values['check'] === true) {
    // Started once the emitters are: it works on the main thread while the workers format.
    const imports = Promise.all(
      protocols
        .filter((p) => p.location.importPath !== null)
        .map((p) => findImportDrift(root, p.location)),
    );
    const [rendered, drift] = await Promise.all([rendering, imports]);
    const stale = drift.filter((d) => d !== null);
    return Math.max(reportImportDrift(stale), reportDrift(root, rendered));
  }
  const rendered: Rendered[] = await rendering;
  for (const { protocol, outputs } of rendered) {
    const written = writeOutputs(root, outputs, generatedLocations(protocol.targets));
    const summary = written
      .map((d) => `  ${d.kind === 'stale' ? 'deleted' : 'wrote'} ${d.path}`)
      .join('\n');
    process.stdout.write(
      `generate: ${protocol.location.idlPath}: ${outputs.length} files, ${written.length} changed\n${summary}${summary ? '\n' : ''}`,
    );
  }
  return 0;
}

function reportImportDrift(drift: readonly Drift[]): number {
  if (drift.length === 0) return 0;
  for (const d of drift) process.stderr.write(`\n${d.diff}`);
  process.stderr.write(
    `\ngenerate:check: ${drift.map((d) => d.path).join(', ')} not what importing its pinned schema gives:\n` +
      `Run \`${IMPORT_COMMAND}\` (then \`pnpm generate\`) and commit the result.\n`,
  );
  return 1;
}

function reportDrift(root: string, rendered: readonly Rendered[]): number {
  const stale: { drift: Drift; idlPath: string }[] = [];
  for (const { protocol, outputs } of rendered) {
    const idlPath = protocol.location.idlPath;
    const drift = findDrift(root, outputs, generatedLocations(protocol.targets));
    if (drift.length === 0)
      process.stdout.write(`generate:check: ${outputs.length} generated files match ${idlPath}\n`);
    for (const d of drift) stale.push({ drift: d, idlPath });
  }
  if (stale.length === 0) return 0;
  for (const { drift } of stale) process.stderr.write(`\n${drift.diff}`);
  for (const idlPath of new Set(stale.map((s) => s.idlPath))) {
    const mine = stale.filter((s) => s.idlPath === idlPath).map((s) => s.drift);
    process.stderr.write(
      `\ngenerate:check: ${mine.length} generated file(s) do not match ${idlPath}:\n` +
        mine.map((d) => `  ${d.kind.padEnd(7)} ${d.path}\n`).join(''),
    );
  }
  process.stderr.write(`Run \`${REGENERATE_COMMAND}\` and commit the result.\n`);
  return 1;
}
