// CLI: `idl-gen <command> [options]`. Each command parses its own options strictly (node:util).
import type { Command } from './cli/command.js';
import { UsageError, parseCommandArgs } from './cli/command.js';
import { IdlError } from './idl/source.js';
import { ImportError } from './import/collect-methods.js';
import { SourceSchemaError } from './import/source-schema.js';
import { ProtocolLayoutError } from './protocols/list.js';

/**
 * Each command's module, loaded when it is named: a command pays for its own imports only
 * (`idl-gen quick` has its vector processes running before the emitters have loaded).
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  generate: async () => (await import('./cli/generate-command.js')).generateCommand,
  summary: async () => (await import('./cli/summary-command.js')).summaryCommand,
  release: async () => (await import('./cli/release-command.js')).releaseCommand,
  breaking: async () => (await import('./cli/breaking-command.js')).breakingCommand,
  import: async () => (await import('./cli/import-command.js')).importCommand,
  quick: async () => (await import('./cli/quick-command.js')).quickCommand,
};

const allCommands = (): Promise<Command[]> =>
  Promise.all(Object.values(COMMANDS).map((load) => load()));

async function usage(): Promise<string> {
  return `Usage: idl-gen <command> [options]

Commands:
${(await allCommands()).map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}

Run \`idl-gen <command> --help\` for a command's options.
`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') {
    process.stdout.write(await usage());
    return 0;
  }
  if (name === undefined) throw new UsageError('missing command', null);
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) throw new UsageError(await describeUnknown(name), null);
  const command = await load();
  const values = parseCommandArgs(command, rest);
  if (values['help'] === true) {
    process.stdout.write(command.help);
    return 0;
  }
  return command.run(values);
}

async function describeUnknown(name: string): Promise<string> {
  if (!name.startsWith('-'))
    return `unknown command '${name}' (commands: ${Object.keys(COMMANDS).join(', ')})`;
  const owners = (await allCommands())
    .filter((c) => name.slice(2) in c.options)
    .map((c) => `idl-gen ${c.name} ${name}`);
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

/** Exits once stdout and stderr have taken everything: process.exit drops what a pipe has not
 * taken yet (a long `generate --check` diff lost its summary at the end). */
function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(exitWhenFlushed, (error: unknown) =>
  exitWhenFlushed(reportFailure(error)),
);
