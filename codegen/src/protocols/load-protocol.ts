// A protocol ready for the emitters: its location, its checked targets and its checked model.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadIdlFile } from '../idl/load.js';
import type { Model } from '../idl/model.js';
import type { ProtocolLocation } from './list.js';
import { listProtocols, PROTOCOLS_DIR, ProtocolLayoutError, selectProtocols } from './list.js';
import type { ProtocolTargets } from './targets.js';
import { generatedLocations, loadTargets } from './targets.js';

export interface LoadedProtocol {
  readonly location: ProtocolLocation;
  readonly targets: ProtocolTargets;
  readonly model: Model;
}

/** Reads one protocol's targets file (checked, located errors). */
export function readTargets(root: string, location: ProtocolLocation): ProtocolTargets {
  const folder = location.dir.startsWith(`${PROTOCOLS_DIR}/`)
    ? location.dir.slice(PROTOCOLS_DIR.length + 1)
    : null;
  return loadTargets(
    join(root, location.targetsPath),
    location.targetsPath,
    location.idlPath,
    folder,
  );
}

/**
 * The protocols `name` selects (all when undefined), loaded. Every protocol's targets are read
 * first, so two protocols that would write into the same folder are refused before anything
 * runs. `idlOverride` reads the one selected protocol's IDL from another file.
 */
export function loadProtocols(
  root: string,
  name: string | undefined,
  idlOverride: string | null = null,
): LoadedProtocol[] {
  const all = listProtocols(root);
  const targets = new Map(all.map((location) => [location.name, readTargets(root, location)]));
  assertDisjointOutputs([...targets.values()]);
  const chosen = selectProtocols(all, name);
  if (idlOverride !== null && chosen.length !== 1)
    throw new ProtocolLayoutError('--idl reads one protocol: name it with --protocol NAME');
  return chosen.map((location) => {
    const path = idlOverride ?? join(root, location.idlPath);
    if (!existsSync(path))
      throw new ProtocolLayoutError(
        `${location.idlPath} does not exist yet: run \`pnpm idl:import\` to import it (${location.importPath ?? 'no protocol.import.json either'})`,
      );
    const model = loadIdlFile(path, idlOverride ?? location.idlPath);
    return { location, targets: targets.get(location.name) as ProtocolTargets, model };
  });
}

/** Generated folders and files of different protocols never overlap: each deletes what it did not write. */
function assertDisjointOutputs(all: readonly ProtocolTargets[]): void {
  const owners: { path: string; owner: string }[] = [];
  for (const targets of all) {
    const { folders, files } = generatedLocations(targets);
    for (const path of [...folders, ...files]) {
      const clash = owners.find(
        (o) => o.path === path || path.startsWith(`${o.path}/`) || o.path.startsWith(`${path}/`),
      );
      if (clash)
        throw new ProtocolLayoutError(
          `protocols ${clash.owner} and ${targets.name} both generate into ${path}: give each its own folders in its protocol.targets.json`,
        );
      owners.push({ path, owner: targets.name });
    }
  }
}
