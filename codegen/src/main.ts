// CLI: load → validate → model → emitters → write, or --check (compare in memory), or --summary.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IdlError } from './idl/source.js';
import { loadIdlFile } from './idl/load.js';
import { renderAll } from './render.js';
import { findDrift, writeOutputs } from './printer/write.js';
import { GENERATED_LOCATIONS } from './emit/registry.js';
import { REGENERATE_COMMAND } from './printer/generated-file.js';
import { describeModel } from './summary.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

async function main(argv: string[]): Promise<number> {
  const isCheck = argv.includes('--check');
  const idlPath = resolve(repoRoot, optionValue(argv, '--idl') ?? 'protocol.idl.json');
  const root = resolve(optionValue(argv, '--root') ?? repoRoot);
  const model = loadIdlFile(idlPath, 'protocol.idl.json');
  if (argv.includes('--summary')) {
    process.stdout.write(describeModel(model));
    return 0;
  }
  const outputs = await renderAll(model, root);
  if (isCheck) {
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
  const written = writeOutputs(root, outputs, GENERATED_LOCATIONS);
  const summary = written
    .map((d) => `  ${d.kind === 'stale' ? 'deleted' : 'wrote'} ${d.path}`)
    .join('\n');
  process.stdout.write(
    `generate: ${outputs.length} files, ${written.length} changed\n${summary}${summary ? '\n' : ''}`,
  );
  return 0;
}

function optionValue(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof IdlError) {
      process.stderr.write(
        `${error.message}\n\n${error.problems.length} problem(s) in ${error.file}; nothing was written.\n`,
      );
    } else {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    process.exit(1);
  },
);
