// `idl-gen summary`: the protocol's methods, types, errors and diagnostics at a glance.
import { loadIdlFile } from '../idl/load.js';
import { describeModel } from '../summary.js';
import type { Command, OptionValues } from './command.js';
import { displayPath, pathOption, rootOption } from './command.js';

export const summaryCommand: Command = {
  name: 'summary',
  summary: "print the protocol's methods, types, errors and diagnostics",
  help: `Usage: idl-gen summary [--idl FILE]

Options:
  --idl FILE    the IDL (default: protocol.idl.json in the repository)
  -h, --help    show this help
`,
  options: { idl: { type: 'string' } },
  run(values: OptionValues) {
    const path = pathOption(values['idl'], rootOption(values), 'protocol.idl.json');
    process.stdout.write(describeModel(loadIdlFile(path, displayPath(path))));
    return Promise.resolve(0);
  },
};
