// A content-addressed cache for the slow, pure steps of generation (datamodel-code-generator,
// prettier): an entry is found by the hash of the step's exact input, the tool's version and its
// options, so a stale entry is never found, only left unused. `pnpm generate` fills it and
// `pnpm generate:check` then reuses what it computed. Kept out of git, under node_modules/.cache.
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bumped when the entry format or the meaning of a key changes. */
const FORMAT = 1;
/** Entries kept per kind; the least recently used beyond this are deleted. */
const KEPT_PER_KIND = 200;

const DEFAULT_DIR = fileURLToPath(new URL('../../../node_modules/.cache/idl-gen', import.meta.url));

export interface CacheStats {
  hits: number;
  misses: number;
}

const stats = new Map<string, CacheStats>();
let isDisabled = process.env['IDL_GEN_CACHE'] === 'off';

/** Where entries live: IDL_GEN_CACHE_DIR, or node_modules/.cache/idl-gen in this repository. */
export function cacheDir(): string {
  return process.env['IDL_GEN_CACHE_DIR'] ?? DEFAULT_DIR;
}

/** `--full` and IDL_GEN_CACHE=off: every step computes its output again. */
export function disableOutputCache(): void {
  isDisabled = true;
}

export function isOutputCacheEnabled(): boolean {
  return !isDisabled;
}

/** Hits and misses per kind since the process started (or since `resetCacheStats`). */
export function cacheStats(): ReadonlyMap<string, CacheStats> {
  return stats;
}

export function resetCacheStats(): void {
  stats.clear();
}

/** The key of an input: every part that can change the output, hashed together. */
export function cacheKey(kind: string, parts: readonly unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, kind, ...parts]))
    .digest('hex');
}

/** `compute()`'s text for this input: from the cache when an intact entry exists, else computed and stored. */
export function cachedTextSync(
  kind: string,
  parts: readonly unknown[],
  compute: () => string,
): string {
  if (isDisabled) return compute();
  const file = entryPath(kind, parts);
  const found = readEntry(file);
  count(kind, found !== null);
  if (found !== null) return found;
  const text = compute();
  writeEntry(kind, file, text);
  return text;
}

export async function cachedText(
  kind: string,
  parts: readonly unknown[],
  compute: () => Promise<string>,
): Promise<string> {
  if (isDisabled) return compute();
  const file = entryPath(kind, parts);
  const found = readEntry(file);
  count(kind, found !== null);
  if (found !== null) return found;
  const text = await compute();
  writeEntry(kind, file, text);
  return text;
}

function entryPath(kind: string, parts: readonly unknown[]): string {
  return join(cacheDir(), kind, cacheKey(kind, parts));
}

function count(kind: string, isHit: boolean): void {
  const entry = stats.get(kind) ?? { hits: 0, misses: 0 };
  if (isHit) entry.hits++;
  else entry.misses++;
  stats.set(kind, entry);
}

/** An entry is its text's sha256, a newline, then the text: a torn or edited entry is a miss. */
function readEntry(file: string): string | null {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const newline = raw.indexOf('\n');
  const text = raw.slice(newline + 1);
  if (newline !== 64 || raw.slice(0, 64) !== sha256(text)) return null;
  const now = new Date();
  utimesSync(file, now, now);
  return text;
}

/** Written under a temporary name and renamed, so a reader never sees half an entry. */
function writeEntry(kind: string, file: string, text: string): void {
  try {
    mkdirSync(join(cacheDir(), kind), { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${sha256(text)}\n${text}`);
    renameSync(temporary, file);
    pruneOldest(join(cacheDir(), kind), KEPT_PER_KIND);
  } catch {
    // A cache that cannot be written (read-only checkout, full disk) only costs time.
  }
}

/** Deletes the least recently used files of `dir` beyond the newest `kept`. */
export function pruneOldest(dir: string, kept: number): void {
  const names = readdirSync(dir);
  if (names.length <= kept) return;
  const byAge = names
    .map((name) => ({ name, used: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => a.used - b.used);
  for (const { name } of byAge.slice(0, names.length - kept))
    rmSync(join(dir, name), { force: true });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
