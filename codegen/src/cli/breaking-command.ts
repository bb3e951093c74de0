// `idl-gen breaking`: what in a protocol's new IDL breaks peers built from an older one.
import { join, resolve } from 'node:path';
import type { BreakingReport } from '../breaking/against-releases.js';
import { checkAgainstReleases, checkPair, isReportFailing } from '../breaking/against-releases.js';
import { loadAllowList } from '../breaking/allow-list.js';
import { loadIdlDocument } from '../breaking/document.js';
import { formatReportJson, formatReportText } from '../breaking/report.js';
import { readVectorSamples } from '../breaking/semantic/vectors.js';
import { listProtocols, selectProtocols } from '../protocols/list.js';
import { readTargets } from '../protocols/load-protocol.js';
import type { ProtocolLocation } from '../protocols/list.js';
import type { Command, OptionValues } from './command.js';
import { displayPath, pathOption, rootOption, selectedProtocol, UsageError } from './command.js';

export const breakingCommand: Command = {
  name: 'breaking',
  summary: 'report every change that breaks peers built from an older IDL',
  help: `Usage: idl-gen breaking [--protocol NAME] [--against OLD.idl.json] [--idl NEW.idl.json] [--json] [--allow FILE]

Compares NEW with OLD and reports each change that breaks a peer built from OLD: a rule id,
the old peers that break, the JSON pointer and line:column in both files, why, and how to make
the change compatible. A semantic cross-check sends sampled messages across; one that crosses
with no structural finding is reported as a rules bug.

Without --against (\`pnpm breaking\`): for each protocol, checks that every released version in its
releases folder (protocol/released/ for the root protocol; \`releases.dir\` in protocol.targets.json)
is intact (its sha256 in SHA256SUMS) and loads with today's loader, then compares its IDL with each
of them.

Exit status: 0 when nothing breaks (allow-listed breaks included), 1 when something does,
2 for a usage error.

Options:
  --protocol NAME  only this protocol (default: every protocol; with --against, the root one)
  --against FILE   the old IDL, instead of every released version
  --idl FILE       the new IDL (default: the protocol's protocol.idl.json)
  --allow FILE     deliberate breaks, each with a reason (default: the protocol's releases.allowList)
  --json           print the report as JSON
  --root DIR       the repository: released versions and test vectors (default: this one)
  -h, --help       show this help
`,
  options: {
    protocol: { type: 'string' },
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
  const name = typeof values['protocol'] === 'string' ? values['protocol'] : undefined;
  const single = values['against'] !== undefined || values['idl'] !== undefined;
  if (
    single &&
    name === undefined &&
    values['against'] === undefined &&
    listProtocols(root).length > 1
  )
    throw new UsageError('--idl reads one protocol: name it with --protocol NAME', 'breaking');
  const locations = single ? [selectedProtocol(values, root, 'breaking')] : selectAll(root, name);
  let failing = false;
  for (const location of locations) {
    const report = reportFor(values, root, location);
    process.stdout.write(
      values['json'] === true ? formatReportJson(report) : formatReportText(report),
    );
    failing ||= isReportFailing(report);
  }
  return Promise.resolve(failing ? 1 : 0);
}

function selectAll(root: string, name: string | undefined): ProtocolLocation[] {
  try {
    return selectProtocols(listProtocols(root), name);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), 'breaking');
  }
}

function reportFor(values: OptionValues, root: string, location: ProtocolLocation): BreakingReport {
  const targets = readTargets(root, location);
  const idlPath = pathOption(values['idl'], root, location.idlPath);
  const allowPath = pathOption(values['allow'], root, targets.releases.allowList);
  const allowList = loadAllowList(allowPath, displayPath(allowPath));
  const vectors = readVectorSamples(targets.vectors ? join(root, targets.vectors) : null);
  const current = loadIdlDocument(idlPath, displayPath(idlPath));
  const against = typeof values['against'] === 'string' ? resolve(values['against']) : null;
  return against
    ? checkPair(loadIdlDocument(against, displayPath(against)), current, allowList, vectors)
    : checkAgainstReleases(root, targets.releases.dir, current, allowList, vectors);
}
