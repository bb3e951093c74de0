// ECMAScript `pattern` (as ajv compiles it: flag `u`, unanchored search) → a Python `re` pattern with
// the same meaning. Only a known-safe subset is translated; anything else fails generation.
//
// Differences handled: `$` (JS: end of input only; Python: also before a final `\n`) becomes `\Z`;
// `.` (JS: not a line terminator; Python: not `\n`) becomes an explicit class; `[` inside a class is
// escaped (Python warns about nested sets). `\d` and `\w` are ASCII in JS, so the Python pattern is
// compiled with re.ASCII; `\s` (Unicode in both, but different sets) and backreferences are refused.

const SYNTAX = new Set('^$\\.*+?()[]{}|/-'.split(''));
const SAFE_ESCAPES = new Set(['d', 'D', 'w', 'W', 'b', 'B', 'n', 'r', 't', 'f', 'v']);
const JS_DOT = '[^\\n\\r\\u2028\\u2029]';

export class UnsupportedPatternError extends Error {
  override readonly name = 'UnsupportedPatternError';
}

export function pythonPattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern.charAt(i);
    if (ch === '\\') {
      const next = pattern.charAt(i + 1);
      out += translateEscape(pattern, i);
      i += next === 'u' ? 5 : next === 'x' ? 3 : 1;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      if (ch === '[') out += '\\[';
      else if ('&~|'.includes(ch) && pattern.charAt(i + 1) === ch) out += `\\${ch}`;
      else out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      if (pattern.charAt(i + 1) === '^') out += pattern.charAt(++i);
      if (pattern.charAt(i + 1) === ']')
        throw new UnsupportedPatternError(`"${pattern}": an empty or leading ] class`);
    } else if (ch === '$') out += '\\Z';
    else if (ch === '.') out += JS_DOT;
    else if (ch === '(' && pattern.charAt(i + 1) === '?') out += groupOpening(pattern, i);
    else out += ch;
  }
  if (inClass) throw new UnsupportedPatternError(`"${pattern}": unterminated character class`);
  return out;
}

function translateEscape(pattern: string, at: number): string {
  const next = pattern.charAt(at + 1);
  if (SYNTAX.has(next) || SAFE_ESCAPES.has(next)) return `\\${next}`;
  if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(pattern.slice(at + 2, at + 6)))
    return pattern.slice(at, at + 6);
  if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(pattern.slice(at + 2, at + 4)))
    return pattern.slice(at, at + 4);
  throw new UnsupportedPatternError(
    `"${pattern}": the escape \\${next} has no exact Python equivalent here`,
  );
}

function groupOpening(pattern: string, at: number): string {
  const kind = pattern.slice(at, at + 3);
  if (kind === '(?:' || kind === '(?=' || kind === '(?!') return '(';
  throw new UnsupportedPatternError(
    `"${pattern}": the group ${pattern.slice(at, at + 4)} is not supported`,
  );
}
