// `idl-gen breaking`: what in the new IDL breaks peers built from an older one.
import { join, resolve } from 'node:path';
import type { BreakingReport } from '../breaking/against-releases.js';
import { checkAgainstReleases, checkPair, isReportFailing } from '../breaking/against-releases.js';
import { ALLOW_LIST_FILE, loadAllowList } from '../breaking/allow-list.js';
import { loadIdlDocument } from '../breaking/document.js';
import { formatReportJson, formatReportText } from '../breaking/report.js';
import { readVectorSamples } from '../breaking/semantic/vectors.js';
import type { Command, OptionValues } from './command.js';
import { displayPath, pathOption, rootOption } from './command.js';

export const breakingCommand: Command = {
  name: 'breaking',
  summary: 'report every change that breaks peers built from an older IDL',
  help: `Usage: idl-gen breaking [--against OLD.idl.json] [--idl NEW.idl.json] [--json] [--allow FILE]

Compares NEW with OLD and reports each change that breaks a peer built from OLD: a rule id,
the old peers that break, the JSON pointer and line:column in both files, why, and how to make
the change compatible. A semantic cross-check sends sampled messages across; one that crosses
with no structural finding is reported as a rules bug.

Without --against (\`pnpm breaking\`): checks that every released version under
protocol/released/ is intact (its sha256 in SHA256SUMS) and loads with today's loader, then
compares NEW with each of them.

Exit status: 0 when nothing breaks (allow-listed breaks included), 1 when something does,
2 for a usage error.

Options:
  --against FILE  the old IDL, instead of every released version
  --idl FILE      the new IDL (default: protocol.idl.json in the repository)
  --allow FILE    deliberate breaks, each with a reason (default: ${ALLOW_LIST_FILE})
  --json          print the report as JSON
  --root DIR      the repository: released versions and test vectors (default: this one)
  -h, --help      show this help
`,
  options: {
    against: { type: 'string' },
    idl: { type: 'string' },
    allow: { type: 'string' },
    json: { type: 'boolean' },
    root: { type: 'string' },
  },
  run: runBreaking,
};

function runBreaking(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  const idlPath = pathOption(values['idl'], root, 'protocol.idl.json');
  const allowPath = pathOption(values['allow'], root, ALLOW_LIST_FILE);
  const allowList = loadAllowList(allowPath, displayPath(allowPath));
  const vectors = readVectorSamples(join(root, 'test-vectors', 'messages'));
  const current = loadIdlDocument(idlPath, displayPath(idlPath));
  const against = typeof values['against'] === 'string' ? resolve(values['against']) : null;
  const report: BreakingReport = against
    ? checkPair(loadIdlDocument(against, displayPath(against)), current, allowList, vectors)
    : checkAgainstReleases(root, current, allowList, vectors);
  process.stdout.write(
    values['json'] === true ? formatReportJson(report) : formatReportText(report),
  );
  return Promise.resolve(isReportFailing(report) ? 1 : 0);
}
