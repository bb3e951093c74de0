// Released protocol versions, frozen in a protocol's releases folder (protocol/released/ for the root
// protocol, its targets file's `releases.dir`): `N.idl.json` per version and a
// SHA256SUMS file (the format `sha256sum -c` reads) that `idl-gen release` writes. A changed,
// missing or unrecorded file is a problem; the check needs nothing but the files, so it works in
// any fresh clone.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CHECKSUMS_FILE = 'SHA256SUMS';

export interface ReleasedFile {
  readonly version: number;
  /** Relative to the repository root, e.g. `protocol/released/1.idl.json`. */
  readonly path: string;
  readonly sha256: string;
}

export interface ReleaseProblem {
  readonly file: string;
  readonly message: string;
  readonly fix: string;
}

export function releasedFileName(version: number): string {
  return `${version}.idl.json`;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The releases recorded in `dir` (relative to `root`), in version order, and any malformed line of SHA256SUMS. */
export function readChecksums(
  root: string,
  dir: string,
): { files: ReleasedFile[]; problems: ReleaseProblem[] } {
  const path = join(root, dir, CHECKSUMS_FILE);
  const files: ReleasedFile[] = [];
  const problems: ReleaseProblem[] = [];
  if (!existsSync(path)) return { files, problems };
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const match = /^([0-9a-f]{64}) [ *]([1-9][0-9]*)\.idl\.json$/.exec(line);
      if (!match)
        problems.push({
          file: `${dir}/${CHECKSUMS_FILE}:${i + 1}`,
          message: `not a "<sha256>  <N>.idl.json" line: ${JSON.stringify(line)}`,
          fix: `restore ${CHECKSUMS_FILE} from git; only \`idl-gen release\` writes it`,
        });
      else {
        const version = Number(match[2]);
        files.push({
          version,
          path: `${dir}/${releasedFileName(version)}`,
          sha256: match[1] ?? '',
        });
      }
    });
  return { files: files.sort((a, b) => a.version - b.version), problems };
}

/** Every released file in `dir` is recorded, present and byte-for-byte as released. */
export function verifyReleasedFiles(
  root: string,
  dir: string,
): {
  files: ReleasedFile[];
  problems: ReleaseProblem[];
} {
  const { files, problems } = readChecksums(root, dir);
  const folder = join(root, dir);
  const onDisk = existsSync(folder)
    ? readdirSync(folder).filter((f) => f.endsWith('.idl.json'))
    : [];
  for (const name of onDisk)
    if (!files.some((f) => f.path.endsWith(`/${name}`)))
      problems.push({
        file: `${dir}/${name}`,
        message: `not recorded in ${CHECKSUMS_FILE}`,
        fix: 'release versions with `idl-gen release`, never by hand; delete this file',
      });
  for (const file of files) {
    const path = join(root, file.path);
    if (!existsSync(path))
      problems.push({
        file: file.path,
        message: 'is missing',
        fix: 'restore it from git: released versions are never deleted',
      });
    else if (sha256(readFileSync(path)) !== file.sha256)
      problems.push({
        file: file.path,
        message: `changed after it was released (its sha256 is not the one in ${CHECKSUMS_FILE})`,
        fix: `restore it (\`git checkout <release commit> -- ${file.path}\`); released versions are frozen, so change the protocol's IDL instead`,
      });
  }
  return { files, problems };
}

/** What the protocol reference lists: each released version and the IDL version it froze. */
export interface ReleasedVersion {
  readonly protocolVersion: number;
  readonly idlVersion: string;
  readonly path: string;
}

export function listReleasedVersions(root: string, dir: string): ReleasedVersion[] {
  return readChecksums(root, dir).files.map((file) => {
    const path = join(root, file.path);
    const meta = existsSync(path)
      ? (JSON.parse(readFileSync(path, 'utf8')) as { meta?: { version?: string } }).meta
      : undefined;
    return { protocolVersion: file.version, idlVersion: meta?.version ?? '?', path: file.path };
  });
}
