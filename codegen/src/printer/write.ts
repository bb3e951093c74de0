// Put outputs on disk (only what changed), delete stale generated files, or compare in --check mode.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { OutputFile } from './generated-file.js';

/** Where generated files may live: whole folders, plus single files outside them. */
export interface GeneratedLocations {
  readonly folders: readonly string[];
  readonly files: readonly string[];
}

export interface Drift {
  readonly path: string;
  readonly kind: 'changed' | 'missing' | 'stale';
  readonly diff: string;
}

/** How long a diff may take before it is given up (files that differ throughout). */
const DIFF_TIMEOUT_MS = 3000;

/**
 * Compares outputs with the files under `root` without touching the disk. `withDiff: false` skips
 * the diffs (writing needs none: a diff of two large, very different files takes minutes).
 */
export function findDrift(
  root: string,
  outputs: readonly OutputFile[],
  locations: GeneratedLocations,
  { withDiff = true }: { withDiff?: boolean } = {},
): Drift[] {
  const drift: Drift[] = [];
  const produced = new Set(outputs.map((o) => o.path));
  for (const output of outputs) {
    const onDisk = join(root, output.path);
    const current = existsSync(onDisk) ? readFileSync(onDisk, 'utf8') : null;
    if (current === output.content) continue;
    drift.push({
      path: output.path,
      kind: current === null ? 'missing' : 'changed',
      diff: withDiff ? unifiedDiff(output.path, current ?? '', output.content) : '',
    });
  }
  for (const path of listGenerated(root, locations)) {
    if (!produced.has(path)) {
      drift.push({
        path,
        kind: 'stale',
        diff: `${path}: not produced by the generator; it would be deleted\n`,
      });
    }
  }
  return drift;
}

/** `a/…` → `b/…` as a unified diff, or a note when the files are too different to diff in time. */
export function unifiedDiff(path: string, committed: string, generated: string): string {
  const patch = createTwoFilesPatch(
    `a/${path}`,
    `b/${path}`,
    committed,
    generated,
    'committed',
    'generated',
    {
      timeout: DIFF_TIMEOUT_MS,
    },
  );
  return (
    patch ??
    `${path}: differs throughout (no diff within ${DIFF_TIMEOUT_MS / 1000} s); regenerate and read \`git diff\`\n`
  );
}

/** Writes changed outputs and deletes stale files; returns what it did. */
export function writeOutputs(
  root: string,
  outputs: readonly OutputFile[],
  locations: GeneratedLocations,
): Drift[] {
  const drift = findDrift(root, outputs, locations, { withDiff: false });
  const byPath = new Map(outputs.map((o) => [o.path, o]));
  for (const d of drift) {
    const target = join(root, d.path);
    if (d.kind === 'stale') {
      rmSync(target);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, byPath.get(d.path)?.content ?? '');
  }
  return drift;
}

function listGenerated(root: string, locations: GeneratedLocations): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== '__pycache__') walk(full);
      } else if (!name.endsWith('.pyc')) {
        found.push(relative(root, full).split('\\').join('/'));
      }
    }
  };
  for (const folder of locations.folders) walk(join(root, folder));
  for (const file of locations.files) if (existsSync(join(root, file))) found.push(file);
  return found;
}
