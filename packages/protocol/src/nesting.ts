// The nesting limit (the IDL's `meta.maxNestingDepth`), checked on the text of a line before
// anything parses it, so that no recursive code ever meets a deeper value. python/src/dsh_sdk/
// nesting.py implements the same definitions.
import { MAX_NESTING_DEPTH } from './gen/constants.gen.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPENERS = ['{', '['] as const;

/**
 * A line this short holds no JSON text nested deeper than the limit (each level takes an opening
 * and a closing bracket): the transport parses it first, and scans it only when it is not JSON.
 */
export const SHORT_LINE_CHARS = 2 * MAX_NESTING_DEPTH + 1;

/**
 * True when `text` nests deeper than `limit`. Cheap for the usual line: one that has no more
 * than `limit` characters, or no more than `limit` brackets and braces (found with `indexOf`),
 * cannot nest deeper; only a line with more of them is scanned.
 */
export function exceedsNestingDepth(text: string, limit: number = MAX_NESTING_DEPTH): boolean {
  if (text.length <= limit) return false;
  let openers = 0;
  for (const opener of OPENERS) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) {
      openers += 1;
      if (openers > limit) return scanNesting(text).depth > limit;
    }
  }
  return false;
}

/** What a scan of a line finds: how deep it nests, and where its top-level members' containers lie. */
export interface NestingScan {
  /**
   * The most containers open at once, scanning left to right: `{` and `[` open one, `}` and `]`
   * close one (never below zero), and nothing inside a string counts (a string runs from `"` to
   * the next `"` not escaped by an odd run of `\`, or to the end of the line). For a JSON text this
   * is its nesting depth: `1` is `{}`, `2` is `{"a":[]}`, `0` a scalar.
   */
  readonly depth: number;
  /** `[start, end)` of every container opened at depth 1, in order; `end` is -1 when it never closes. */
  readonly innerContainers: readonly (readonly [number, number])[];
}

/** Scans the whole line (see {@link NestingScan}). Linear in the length of `text`. */
export function scanNesting(text: string): NestingScan {
  const innerContainers: [number, number][] = [];
  let depth = 0;
  let deepest = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = endOfString(text, i + 1);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (depth === 2) innerContainers.push([i, -1]);
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) {
      if (depth === 2) {
        const last = innerContainers[innerContainers.length - 1];
        if (last) last[1] = i + 1;
      }
      depth -= 1;
    }
    i += 1;
  }
  return { depth: deepest, innerContainers };
}

/** The index after the `"` that closes the string whose content starts at `start`, or the end. */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start);
  while (quote !== -1) {
    let backslashes = 0;
    while (
      quote - 1 - backslashes >= start &&
      text.charCodeAt(quote - 1 - backslashes) === BACKSLASH
    )
      backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/**
 * The top level of a line too deep to parse whole: the line with every container of a top-level
 * member replaced by `null`, parsed. `undefined` when that is not JSON (a container never closes,
 * the line is not JSON at its top level). So the `id` and `method` of a request nested too deep can
 * be read, and the request answered, without building its deep members.
 */
export function readTopLevel(text: string, scan: NestingScan = scanNesting(text)): unknown {
  let reduced = '';
  let from = 0;
  for (const [start, end] of scan.innerContainers) {
    if (end === -1) return undefined;
    reduced += `${text.slice(from, start)}null`;
    from = end;
  }
  reduced += text.slice(from);
  try {
    return JSON.parse(reduced) as unknown;
  } catch {
    return undefined;
  }
}
