// `idl-gen summary`: each protocol's methods, types, errors and diagnostics at a glance.
import { describeModel } from '../summary.js';
import type { Command, OptionValues } from './command.js';
import { loadSelectedProtocols, rootOption } from './command.js';

export const summaryCommand: Command = {
  name: 'summary',
  summary: "print each protocol's methods, types, errors and diagnostics",
  help: `Usage: idl-gen summary [--protocol NAME] [--idl FILE]

Options:
  --protocol NAME  only this protocol (default: every protocol of the repository)
  --idl FILE       read the selected protocol's IDL from FILE (needs one protocol)
  -h, --help       show this help
`,
  options: { protocol: { type: 'string' }, idl: { type: 'string' } },
  run(values: OptionValues) {
    const protocols = loadSelectedProtocols(values, rootOption(values), 'summary');
    const text = protocols.map(({ model, targets }) => describeModel(model, targets)).join('\n');
    process.stdout.write(text);
    return Promise.resolve(0);
  },
};
