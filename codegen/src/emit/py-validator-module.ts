// What the validator compiler shares across functions: the keyword tables, JSON pointers as Python
// expressions, and the module-level parts (constants, helper functions, imports) it creates.
import type { SchemaNode } from '../idl/model.js';
import type { PyTarget } from '../protocols/targets.js';
import type { PyExpr } from './py-literals.js';
import { flatPy, layoutPy, pyCallExpr, pyLiteral, pyStr, pyTupleExpr } from './py-literals.js';
import { pythonPattern } from './py-regex.js';

/** Keywords the compiler asserts; any other keyword outside IGNORED fails generation. */
export const SUPPORTED = new Set(
  '$ref allOf anyOf not if then else const enum type minLength pattern contentEncoding minimum maximum required properties additionalProperties items minItems x-not-object-lacks-required x-lenient-drop x-lenient-default x-lenient-compact'.split(
    ' ',
  ),
);

/** Annotations no validator reads (`format` too, as in ts-validators.ts; `contentEncoding` is asserted). */
export const IGNORED = new Set(
  'contentMediaType title description examples default format $comment readOnly writeOnly'.split(
    ' ',
  ),
);

/** The test of each JSON type; `integer` and `number` follow JSON Schema (a bool is neither). */
export const TYPE_TEST: Readonly<Record<string, (v: string, parts: ModuleParts) => string>> = {
  string: (v) => `isinstance(${v}, str)`,
  integer: (v, parts) => `${parts.use('is_integer')}(${v})`,
  number: (v, parts) => `${parts.use('is_number')}(${v})`,
  boolean: (v) => `isinstance(${v}, bool)`,
  null: (v) => `${v} is None`,
  object: (v) => `isinstance(${v}, dict)`,
  array: (v) => `isinstance(${v}, list)`,
};

/** Keywords that apply to one JSON type only, checked under one `isinstance` per type. */
export const GROUPS: readonly { type: string; keywords: readonly string[] }[] = [
  { type: 'number', keywords: ['maximum', 'minimum'] },
  { type: 'string', keywords: ['minLength', 'pattern', 'contentEncoding'] },
  // The lenient compaction runs after `items` has marked what it drops (schema/lenient.ts).
  { type: 'array', keywords: ['minItems', 'items', 'x-lenient-compact'] },
  { type: 'object', keywords: ['required', 'additionalProperties', 'properties'] },
];

/** Where a value sits: a pointer variable, then static segments and index variables. */
export type Pointer = readonly { readonly text: string; readonly isVar: boolean }[];

export const ROOT_POINTER: Pointer = [{ text: 'p', isVar: true }];

/** The pointer of a member: the RFC 6901-escaped name appended. */
export function child(pointer: Pointer, name: string): Pointer {
  return [...pointer, { text: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, isVar: false }];
}

export function itemOf(pointer: Pointer, index: string): Pointer {
  return [...pointer, { text: index, isVar: true }];
}

/** The pointer as a Python expression: `p`, `p + "/cwd"` or `f"{p}/contentBlocks/{i3}"`. */
export function pointerExpr(pointer: Pointer): string {
  const [first, second] = pointer;
  if (!first) return '""';
  if (pointer.length === 1 && first.isVar) return first.text;
  if (pointer.length === 2 && first.isVar && second && !second.isVar) {
    return `${first.text} + ${pyStr(second.text)}`;
  }
  const body = pointer.map((part, i) => {
    if (part.isVar) return `${i > 0 ? '/' : ''}{${part.text}}`;
    if (/["'\\{}\n]/.test(part.text))
      throw new Error(`py-validators: the name in ${part.text} needs escaping`);
    return part.text;
  });
  return `f"${body.join('')}"`;
}

export function num(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`py-validators: ${String(value)} is not a number`);
  }
  return String(value);
}

export function isPlainObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The names the hand-written runtime gives the compiled code: python/src/dsh_sdk/validation_runtime.py,
 * and `ABSENT` from python/src/dsh_sdk/jsonlib.py (see {@link runtimeModule}).
 */
export type RuntimeName =
  | 'ABSENT'
  | 'DROPPED'
  | 'drop_marked'
  | 'Check'
  | 'Predicate'
  | 'Out'
  | 'Validator'
  | 'all_numbers_within'
  | 'any_of'
  | 'is_canonical_base64'
  | 'is_integer'
  | 'is_number'
  | 'json_in'
  | 'member_pointer'
  | 'passes'
  | 'run'
  | 'unknown_members'
  | 'utf16_length';

/** The module a runtime name comes from: `ABSENT` is jsonlib's, the one sentinel the transport and peers use too. */
export function runtimeModule(name: RuntimeName, python: PyTarget): string {
  return name === 'ABSENT' ? python.runtime.json : python.runtime.validation;
}

/** Module-level constants and helper functions, shared when identical, and what the module imports. */
export class ModuleParts {
  readonly helpers: string[] = [];
  readonly constants: string[] = [];
  /** Tag → check tables, printed after the functions they name. */
  readonly tables: string[] = [];
  /** Standard-library modules the compiled code needs besides `typing` (`re`). */
  readonly modules = new Set<string>();
  /** The names the compiled code takes from the runtime, so it imports only those. */
  readonly runtime = new Set<RuntimeName>();
  private readonly helperNames = new Map<string, string>();
  private readonly constantNames = new Map<string, string>();

  /** A name from the runtime, recorded as used. */
  use(name: RuntimeName): string {
    this.runtime.add(name);
    return name;
  }

  /** A module-level function `<prefix>_<n>(params) <returns>:` with `body`; returns its name. */
  helper(prefix: string, params: string[], returns: string, body: string[]): string {
    const key = `${prefix}|${body.join('\n')}`;
    const known = this.helperNames.get(key);
    if (known) return known;
    const name = `${prefix}_${this.helperNames.size}`;
    this.helperNames.set(key, name);
    const head = layoutPy(pyCallExpr(`def ${name}`, params), 0, '', ` ${returns}:`);
    this.helpers.push([head, ...body].join('\n'));
    return name;
  }

  /**
   * A `{tag: check}` table of checks (or of fast checks, `Predicate`s); printed after the functions
   * it names (`tables`), shared when identical.
   */
  checkTable(entries: readonly (readonly [string, string])[], type: 'Check' | 'Predicate'): string {
    const prefix = type === 'Check' ? '_CHECKS' : '_VALID';
    const key = `${prefix}|${entries.map(([tag, check]) => `${tag}=${check}`).join('|')}`;
    const known = this.helperNames.get(key);
    if (known) return known;
    const name = `${prefix}_BY_TAG_${this.tables.length}`;
    this.helperNames.set(key, name);
    const rows = entries.map(([tag, check]) => `    ${pyStr(tag)}: ${check},`);
    this.tables.push([`${name}: Final[dict[str, ${type}]] = {`, ...rows, '}'].join('\n'));
    this.use(type);
    return name;
  }

  /** A test that holds when `value` is none of `allowed` (JSON equality: `True` is not `1`). */
  differs(value: string, allowed: unknown[]): string {
    if (allowed.length === 1 && typeof allowed[0] === 'string')
      return `${value} != ${pyStr(allowed[0])}`;
    if (allowed.every((a) => typeof a === 'string')) {
      const strings = pyTupleExpr(allowed.map((a) => pyStr(a as string)));
      const set = this.constant('_STRINGS', pyCallExpr('frozenset', [strings]));
      return `not (isinstance(${value}, str) and ${value} in ${set})`;
    }
    const values = this.constant('_VALUES', pyTupleExpr(allowed.map(pyLiteral)));
    return `not ${this.use('json_in')}(${value}, ${values})`;
  }

  /** A frozenset constant of member names (shared with identical `enum` sets). */
  keySet(names: readonly string[]): string {
    if (names.length === 0) return this.constant('_STRINGS', 'frozenset[str]()');
    return this.constant('_STRINGS', pyCallExpr('frozenset', [pyTupleExpr(names.map(pyStr))]));
  }

  /** A `(low, high)` constant of number bounds. */
  range(low: string, high: string): string {
    return this.constant('_RANGE', pyTupleExpr([low, high]));
  }

  /** A compiled pattern constant, ECMAScript meaning kept. */
  pattern(pattern: string): string {
    this.modules.add('re');
    const python = pythonPattern(pattern);
    const literal =
      !python.includes('"') && !python.endsWith('\\') ? `r"${python}"` : pyStr(python);
    return this.constant('_PATTERN', `re.compile(${literal}, re.ASCII)`);
  }

  private constant(prefix: string, expression: PyExpr): string {
    const key = flatPy(expression);
    const known = this.constantNames.get(key);
    if (known) return known;
    const name = `${prefix}_${this.constantNames.size}`;
    this.constantNames.set(key, name);
    this.constants.push(layoutPy(expression, 0, `${name}: Final = `));
    return name;
  }
}
