// `idl-gen generate [--check]`: every emitter, written to disk or compared with it.
import { loadIdlFile } from '../idl/load.js';
import { GENERATED_LOCATIONS } from '../emit/registry.js';
import { REGENERATE_COMMAND } from '../printer/generated-file.js';
import { findDrift, writeOutputs } from '../printer/write.js';
import { runWatcher } from '../inner-loop/watch.js';
import { renderAll } from '../render.js';
import type { Command, OptionValues } from './command.js';
import { UsageError, pathOption, rootOption } from './command.js';

export const generateCommand: Command = {
  name: 'generate',
  summary: 'run every emitter and write the generated files (--check: compare only)',
  help: `Usage: idl-gen generate [--check | --watch] [--idl FILE] [--root DIR]

Loads and checks the IDL, runs every emitter and writes the files that changed, deleting stale
files in the generated folders.

Options:
  --check       write nothing; exit 1 with a diff of every stale file (pnpm generate:check)
  --watch       watch every IDL of the repository; on each save regenerate its protocol and
                rerun its quick check, one line per save (pnpm dev); Ctrl-C stops
  --idl FILE    the IDL (default: protocol.idl.json in the repository)
  --root DIR    the repository to write into (default: this repository)
  -h, --help    show this help
`,
  options: {
    check: { type: 'boolean' },
    watch: { type: 'boolean' },
    idl: { type: 'string' },
    root: { type: 'string' },
  },
  run: runGenerate,
};

async function runGenerate(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  if (values['watch'] === true) {
    if (values['check'] === true || values['idl'] !== undefined)
      throw new UsageError(
        '--watch watches every IDL and writes: drop --check and --idl',
        'generate',
      );
    return runWatcher(root);
  }
  const model = loadIdlFile(
    pathOption(values['idl'], root, 'protocol.idl.json'),
    'protocol.idl.json',
  );
  const outputs = await renderAll(model, root);
  if (values['check'] === true) return reportDrift(root, outputs);
  const written = writeOutputs(root, outputs, GENERATED_LOCATIONS);
  const summary = written
    .map((d) => `  ${d.kind === 'stale' ? 'deleted' : 'wrote'} ${d.path}`)
    .join('\n');
  process.stdout.write(
    `generate: ${outputs.length} files, ${written.length} changed\n${summary}${summary ? '\n' : ''}`,
  );
  return 0;
}

function reportDrift(root: string, outputs: Awaited<ReturnType<typeof renderAll>>): number {
  const drift = findDrift(root, outputs, GENERATED_LOCATIONS);
  if (drift.length === 0) {
    process.stdout.write(
      `generate:check: ${outputs.length} generated files match protocol.idl.json\n`,
    );
    return 0;
  }
  for (const d of drift) process.stderr.write(`\n${d.diff}`);
  process.stderr.write(
    `\ngenerate:check: ${drift.length} generated file(s) do not match protocol.idl.json:\n` +
      drift.map((d) => `  ${d.kind.padEnd(7)} ${d.path}\n`).join('') +
      `Run \`${REGENERATE_COMMAND}\` and commit the result.\n`,
  );
  return 1;
}
