// CLI: `idl-gen <command> [options]`. Each command parses its own options strictly (node:util).
import { breakingCommand } from './cli/breaking-command.js';
import type { Command } from './cli/command.js';
import { UsageError, parseCommandArgs } from './cli/command.js';
import { generateCommand } from './cli/generate-command.js';
import { importCommand } from './cli/import-command.js';
import { releaseCommand } from './cli/release-command.js';
import { summaryCommand } from './cli/summary-command.js';
import { IdlError } from './idl/source.js';
import { ImportError } from './import/collect-methods.js';
import { SourceSchemaError } from './import/source-schema.js';
import { ProtocolLayoutError } from './protocols/list.js';

const COMMANDS: readonly Command[] = [
  generateCommand,
  summaryCommand,
  releaseCommand,
  breakingCommand,
  importCommand,
];

const USAGE = `Usage: idl-gen <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}

Run \`idl-gen <command> --help\` for a command's options.
`;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (name === undefined) throw new UsageError('missing command', null);
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(describeUnknown(name), null);
  const values = parseCommandArgs(command, rest);
  if (values['help'] === true) {
    process.stdout.write(command.help);
    return 0;
  }
  return command.run(values);
}

function describeUnknown(name: string): string {
  if (!name.startsWith('-'))
    return `unknown command '${name}' (commands: ${COMMANDS.map((c) => c.name).join(', ')})`;
  const owners = COMMANDS.filter((c) => name.slice(2) in c.options).map(
    (c) => `idl-gen ${c.name} ${name}`,
  );
  return `unknown option '${name}'${owners.length > 0 ? `; did you mean ${owners.join(' or ')}?` : ' before the command'}`;
}

function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    const help = error.command ? `idl-gen ${error.command} --help` : 'idl-gen --help';
    process.stderr.write(
      `idl-gen${error.command ? ` ${error.command}` : ''}: ${error.message}\nRun \`${help}\` for usage.\n`,
    );
    return 2;
  }
  if (error instanceof IdlError) {
    process.stderr.write(
      `${error.message}\n\n${error.problems.length} problem(s) in ${error.file}; nothing was written.\n`,
    );
    return 1;
  }
  if (
    error instanceof ProtocolLayoutError ||
    error instanceof ImportError ||
    error instanceof SourceSchemaError
  ) {
    process.stderr.write(`idl-gen: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(error)),
);
