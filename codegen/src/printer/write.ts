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

/** Compares outputs with the files under `root` without touching the disk. */
export function findDrift(
  root: string,
  outputs: readonly OutputFile[],
  locations: GeneratedLocations,
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
      diff: createTwoFilesPatch(
        `a/${output.path}`,
        `b/${output.path}`,
        current ?? '',
        output.content,
        'committed',
        'generated',
      ),
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

/** Writes changed outputs and deletes stale files; returns what it did. */
export function writeOutputs(
  root: string,
  outputs: readonly OutputFile[],
  locations: GeneratedLocations,
): Drift[] {
  const drift = findDrift(root, outputs, locations);
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
