// Importing one protocol: settings → pinned source → IDL text, checked by the IDL loader before
// anyone writes it; and the drift check `generate --check` runs.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadIdlText } from '../idl/load.js';
import { IdlError } from '../idl/source.js';
import type { Drift } from '../printer/write.js';
import { unifiedDiff } from '../printer/write.js';
import type { ProtocolLocation } from '../protocols/list.js';
import { buildIdl, idlText } from './build-idl.js';
import { loadImportSettings } from './settings.js';
import { readSourceSchema } from './source-schema.js';

/** The command that imports again (the root package.json script). */
export const IMPORT_COMMAND = 'pnpm idl:import';

export interface ImportResult {
  readonly idlPath: string;
  readonly text: string;
  /** `package@version file`. */
  readonly source: string;
  readonly methodCount: number;
  readonly typeCount: number;
}

/** The imported IDL as a document (not yet text), and what it came from. */
function importDocument(root: string, location: ProtocolLocation) {
  if (location.importPath === null) throw new Error(`${location.name} has no protocol.import.json`);
  const settings = loadImportSettings(join(root, location.importPath), location.importPath);
  const source = readSourceSchema(root, settings);
  return { settings, source, ...buildIdl(source, settings, location.idlPath) };
}

/**
 * Imports a protocol whose folder has a protocol.import.json. The text is loaded as generate
 * loads an IDL; when that fails, the text is kept in a temporary file the error names.
 */
export async function importProtocol(
  root: string,
  location: ProtocolLocation,
): Promise<ImportResult> {
  const { settings, source, document, methods } = importDocument(root, location);
  const text = await idlText(document, root);
  try {
    loadIdlText(text, location.idlPath);
  } catch (error) {
    if (!(error instanceof IdlError)) throw error;
    const kept = join(mkdtempSync(join(tmpdir(), 'idl-import-')), 'protocol.idl.json');
    writeFileSync(kept, text);
    throw new IdlError(
      error.file,
      error.problems.map((p) => ({
        ...p,
        hint: `${p.hint} (the IDL is imported: the text is in ${kept}; change ${settings.path} so the import comes out right)`,
      })),
    );
  }
  const types = Object.keys(document['types'] as object).length;
  return {
    idlPath: location.idlPath,
    text,
    source: source.label,
    methodCount: methods.length,
    typeCount: types,
  };
}

/**
 * The committed IDL against a fresh import: null when they match. Compared as JSON values first
 * (the committed file's formatting is prettier's to check); only a difference is formatted and
 * diffed. The import is not loaded as an IDL again: the committed one is, by generate.
 */
export async function findImportDrift(
  root: string,
  location: ProtocolLocation,
): Promise<Drift | null> {
  const { document } = importDocument(root, location);
  const idlPath = location.idlPath;
  const path = join(root, idlPath);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (current !== null && sameJson(current, document)) return null;
  const text = await idlText(document, root);
  return {
    path: idlPath,
    kind: current === null ? 'missing' : 'changed',
    diff: unifiedDiff(idlPath, current ?? '', text),
  };
}

function sameJson(text: string, document: object): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(document);
  } catch {
    return false;
  }
}
