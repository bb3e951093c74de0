// Python literals and docstrings printed the way `ruff format` (and black) would print them, so the
// generated Python passes `ruff format --check` without running a formatter at generation time.
import { PY_LINE_LENGTH } from '../printer/imports.js';

/** A Python string literal: double quotes unless single quotes need fewer escapes (ruff's rule). */
export function pyStr(value: string): string {
  const hasDouble = value.includes('"');
  const hasSingle = value.includes("'");
  const quote = hasDouble && !hasSingle ? "'" : '"';
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff))
      out += pyEscape(code);
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

function pyEscape(code: number): string {
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A Python literal for a JSON value: str, int, float, bool, None, list, dict. */
export function pyLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyStr(k)}: ${pyLiteral(v)}`)
      .join(', ')}}`;
  }
  throw new Error(`no Python literal for ${typeof value}`);
}

/** `pyLiteral` as an expression `layoutPy` can wrap: dicts and lists are brackets of their items. */
export function pyLiteralExpr(value: unknown, prefix = ''): PyExpr {
  if (Array.isArray(value) && value.length > 0)
    return { head: `${prefix}[`, items: value.map((v) => pyLiteralExpr(v)), close: ']' };
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    const items = Object.entries(value).map(([k, v]) => pyLiteralExpr(v, `${pyStr(k)}: `));
    return { head: `${prefix}{`, items, close: '}' };
  }
  return `${prefix}${pyLiteral(value)}`;
}

function pyFloat(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`no Python literal for ${value}`);
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** A tuple literal: `()`, `(a,)` or `(a, b)`. */
export function pyTuple(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

/**
 * A docstring at `indent`, as ruff format leaves it: one line when the text has one line, backslashes
 * and triple quotes escaped, a space before the closing quotes when the text ends with a quote.
 */
export function pyDocstring(text: string, indent = ''): string {
  const body = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').trim();
  const lines = body.split('\n').map((l) => l.trimEnd());
  if (lines.length === 1) return `${indent}"""${lines[0]}${body.endsWith('"') ? ' ' : ''}"""`;
  const rest = lines.slice(1).map((l) => (l ? `${indent}${l}` : ''));
  return [`${indent}"""${lines[0]}`, ...rest, `${indent}"""`].join('\n');
}

/** A Python expression to lay out: plain text, or a bracketed list of items after a head (`f(`, `(`, `{`). */
export type PyExpr = string | PyBracket;

export interface PyBracket {
  readonly head: string;
  readonly items: readonly PyExpr[];
  readonly close: string;
  /** A parenthesized tuple: one item needs its trailing comma even on one line. */
  readonly isTuple?: boolean;
}

export const pyCallExpr = (callee: string, items: readonly PyExpr[]): PyBracket => ({
  head: `${callee}(`,
  items,
  close: ')',
});
export const pyTupleExpr = (items: readonly PyExpr[]): PyBracket => ({
  head: '(',
  items,
  close: ')',
  isTuple: true,
});

export { PY_LINE_LENGTH };

/** The expression on one line. */
export function flatPy(expr: PyExpr): string {
  if (typeof expr === 'string') return expr;
  const inner = expr.items.map(flatPy).join(', ');
  return `${expr.head}${inner}${expr.isTuple && expr.items.length === 1 ? ',' : ''}${expr.close}`;
}

/**
 * Lines of `prefix + expr + suffix` at `indent`, laid out so `ruff format` keeps them: one line when it
 * fits in the line length, otherwise one item per line with a trailing comma (which ruff never joins).
 */
export function layoutPy(expr: PyExpr, indent: number, prefix = '', suffix = ''): string {
  const pad = ' '.repeat(indent);
  const oneLine = `${pad}${prefix}${flatPy(expr)}${suffix}`;
  if (typeof expr === 'string' || oneLine.length <= PY_LINE_LENGTH || expr.items.length === 0)
    return oneLine;
  const items = expr.items.map((item) => layoutPy(item, indent + 4, '', ','));
  return [`${pad}${prefix}${expr.head}`, ...items, `${pad}${expr.close}${suffix}`].join('\n');
}

/**
 * Lines of `prefix + expr + suffix` at `indent` exactly as `ruff format` prints them when the source
 * has no trailing commas of its own: one line when it fits; otherwise the items on one line between
 * the brackets when that fits; otherwise one item per line, each laid out the same way, with a
 * trailing comma.
 */
export function layoutPyCompact(expr: PyExpr, indent: number, prefix = '', suffix = ''): string {
  const pad = ' '.repeat(indent);
  const oneLine = `${pad}${prefix}${flatPy(expr)}${suffix}`;
  if (typeof expr === 'string' || oneLine.length <= PY_LINE_LENGTH || expr.items.length === 0)
    return oneLine;
  const head = `${pad}${prefix}${expr.head}`;
  const close = `${pad}${expr.close}${suffix}`;
  const body = `${pad}    ${expr.items.map(flatPy).join(', ')}`;
  if (body.length <= PY_LINE_LENGTH && !(expr.isTuple && expr.items.length === 1))
    return [head, body, close].join('\n');
  const items = expr.items.map((item) => layoutPyCompact(item, indent + 4, '', ','));
  return [head, ...items, close].join('\n');
}

/**
 * `prefix + a + b + …` at `indent` as ruff prints a long sum: one line when it fits, else inside
 * parentheses, on one line when that fits or one operand a line with the operator first.
 */
export function layoutPySum(terms: readonly string[], indent: number, prefix: string): string {
  const pad = ' '.repeat(indent);
  const oneLine = `${pad}${prefix}${terms.join(' + ')}`;
  if (oneLine.length <= PY_LINE_LENGTH) return oneLine;
  const body = `${pad}    ${terms.join(' + ')}`;
  if (body.length <= PY_LINE_LENGTH) return [`${pad}${prefix}(`, body, `${pad})`].join('\n');
  const lines = terms.map((t, i) => `${pad}    ${i === 0 ? '' : '+ '}${t}`);
  return [`${pad}${prefix}(`, ...lines, `${pad})`].join('\n');
}
