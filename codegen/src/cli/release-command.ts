// `idl-gen release`: freeze a protocol's IDL as its protocol version, once, after checking it breaks
// no earlier release.
import { join } from 'node:path';
import { checkAgainstReleases, isReportFailing } from '../breaking/against-releases.js';
import { loadAllowList } from '../breaking/allow-list.js';
import { loadIdlDocument } from '../breaking/document.js';
import { formatReportText } from '../breaking/report.js';
import { readVectorSamples } from '../breaking/semantic/vectors.js';
import { readTargets } from '../protocols/load-protocol.js';
import { releasedFileName } from '../release/released-files.js';
import { writeRelease } from '../release/write-release.js';
import type { Command, OptionValues } from './command.js';
import { displayPath, pathOption, rootOption, selectedProtocol } from './command.js';

export const releaseCommand: Command = {
  name: 'release',
  summary: "freeze a protocol's IDL as <releases dir>/<meta.protocolVersion>.idl.json",
  help: `Usage: idl-gen release [--protocol NAME] [--idl FILE] [--root DIR]

Freezes the IDL as <releases dir>/<meta.protocolVersion>.idl.json (protocol/released/ for the root
protocol; \`releases.dir\` in its protocol.targets.json) and records its sha256 in SHA256SUMS there.
A released file is never edited again: \`pnpm breaking\` fails when one changes. Refuses when that
version is already released, and when the IDL breaks an earlier release (the \`idl-gen breaking\`
report is printed).

Afterwards: run \`pnpm generate\` (the protocol reference lists the released versions), add a
CHANGELOG.md entry, and commit the released file and SHA256SUMS together.

Options:
  --protocol NAME  the protocol (default: the root protocol, protocol.idl.json)
  --idl FILE       the IDL (default: the protocol's protocol.idl.json)
  --root DIR       the repository to release into (default: this one)
  -h, --help       show this help
`,
  options: { protocol: { type: 'string' }, idl: { type: 'string' }, root: { type: 'string' } },
  run: runRelease,
};

function runRelease(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  const location = selectedProtocol(values, root, 'release');
  const targets = readTargets(root, location);
  const idlPath = pathOption(values['idl'], root, location.idlPath);
  const current = loadIdlDocument(idlPath, displayPath(idlPath));
  const { dir } = targets.releases;
  const allowList = loadAllowList(
    join(root, targets.releases.allowList),
    targets.releases.allowList,
  );
  const vectors = readVectorSamples(targets.vectors ? join(root, targets.vectors) : null);
  const report = checkAgainstReleases(root, dir, current, allowList, vectors);
  const latest = Math.max(0, ...report.released.map((f) => f.version));
  const refusal =
    current.version <= latest
      ? `protocol version ${current.version} is not above the latest release (${latest}): raise /meta/protocolVersion to ${latest + 1} and mark what is new with \`since\``
      : isReportFailing(report)
        ? 'the IDL breaks an earlier release or a released file is damaged (report above)'
        : null;
  if (refusal) {
    if (isReportFailing(report)) process.stderr.write(formatReportText(report));
    process.stderr.write(`release: refused: ${refusal}\n`);
    return Promise.resolve(1);
  }
  const released = writeRelease(root, dir, idlPath, current.version);
  process.stdout.write(
    `release: froze protocol version ${current.version} as ${released.path} (sha256 ${released.sha256})\n` +
      `next: run \`pnpm generate\` (the protocol reference lists the released versions), add a CHANGELOG.md entry, and commit ${dir}/${releasedFileName(current.version)} with ${dir}/SHA256SUMS\n`,
  );
  return Promise.resolve(0);
}
