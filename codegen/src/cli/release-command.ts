// `idl-gen release`: freeze the IDL as its protocol version, once, after checking it breaks no
// earlier release.
import { join } from 'node:path';
import { checkAgainstReleases, isReportFailing } from '../breaking/against-releases.js';
import { ALLOW_LIST_FILE, loadAllowList } from '../breaking/allow-list.js';
import { loadIdlDocument } from '../breaking/document.js';
import { formatReportText } from '../breaking/report.js';
import { readVectorSamples } from '../breaking/semantic/vectors.js';
import { RELEASED_DIR, releasedFileName } from '../release/released-files.js';
import { writeRelease } from '../release/write-release.js';
import type { Command, OptionValues } from './command.js';
import { displayPath, pathOption, rootOption } from './command.js';

export const releaseCommand: Command = {
  name: 'release',
  summary: `freeze the IDL as ${RELEASED_DIR}/<meta.protocolVersion>.idl.json`,
  help: `Usage: idl-gen release [--idl FILE] [--root DIR]

Freezes the IDL as ${RELEASED_DIR}/<meta.protocolVersion>.idl.json and records its sha256
in ${RELEASED_DIR}/SHA256SUMS. A released file is never edited again: \`pnpm breaking\` fails
when one changes. Refuses when that version is already released, and when the IDL breaks an
earlier release (the \`idl-gen breaking\` report is printed).

Afterwards: run \`pnpm generate\` (docs/protocol.md lists the released versions), add a
CHANGELOG.md entry, and commit the released file and SHA256SUMS together.

Options:
  --idl FILE    the IDL (default: protocol.idl.json in the repository)
  --root DIR    the repository to release into (default: this one)
  -h, --help    show this help
`,
  options: { idl: { type: 'string' }, root: { type: 'string' } },
  run: runRelease,
};

function runRelease(values: OptionValues): Promise<number> {
  const root = rootOption(values);
  const idlPath = pathOption(values['idl'], root, 'protocol.idl.json');
  const current = loadIdlDocument(idlPath, displayPath(idlPath));
  const allowList = loadAllowList(join(root, ALLOW_LIST_FILE), ALLOW_LIST_FILE);
  const report = checkAgainstReleases(
    root,
    current,
    allowList,
    readVectorSamples(join(root, 'test-vectors', 'messages')),
  );
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
  const released = writeRelease(root, idlPath, current.version);
  process.stdout.write(
    `release: froze protocol version ${current.version} as ${released.path} (sha256 ${released.sha256})\n` +
      `next: run \`pnpm generate\` (docs/protocol.md lists the released versions), add a CHANGELOG.md entry, and commit ${RELEASED_DIR}/${releasedFileName(current.version)} with ${RELEASED_DIR}/SHA256SUMS\n`,
  );
  return Promise.resolve(0);
}
