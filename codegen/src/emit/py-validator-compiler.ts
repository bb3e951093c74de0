// JSON Schema (the validation bundle) → Python statements that report violations the way ajv does
// with `allErrors: true`: every keyword is checked, type-specific keywords only for values of their
// type, `if` only selects (its own errors are never reported), `anyOf` reports every branch when
// none passes. Keywords outside SUPPORTED fail generation, so nothing is silently skipped.
import type { SchemaNode } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import type { PyExpr } from './py-literals.js';
import { flatPy, layoutPy, pyCallExpr, pyLiteral, pyStr, pyTupleExpr } from './py-literals.js';
import { pythonPattern } from './py-regex.js';

export const SUPPORTED = new Set([
  '$ref',
  'allOf',
  'anyOf',
  'not',
  'if',
  'then',
  'else',
  'const',
  'enum',
  'type',
  'minLength',
  'pattern',
  'contentEncoding',
  'minimum',
  'maximum',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minItems',
]);

/** Annotations: no validator reads them. (`contentEncoding` is asserted, as ts-validators.ts makes ajv do.) */
export const IGNORED = new Set([
  'contentMediaType',
  'title',
  'description',
  'examples',
  'default',
  '$comment',
  'readOnly',
  'writeOnly',
]);

const TYPE_TEST: Record<string, (v: string) => string> = {
  string: (v) => `isinstance(${v}, str)`,
  integer: (v) => `_is_integer(${v})`,
  number: (v) => `_is_number(${v})`,
  boolean: (v) => `isinstance(${v}, bool)`,
  null: (v) => `${v} is None`,
  object: (v) => `isinstance(${v}, dict)`,
  array: (v) => `isinstance(${v}, list)`,
};

const GROUPS: readonly { type: string; keywords: readonly string[] }[] = [
  { type: 'number', keywords: ['maximum', 'minimum'] },
  { type: 'string', keywords: ['minLength', 'pattern', 'contentEncoding'] },
  { type: 'array', keywords: ['minItems', 'items'] },
  { type: 'object', keywords: ['required', 'properties', 'additionalProperties'] },
];

/** Where a value sits: a pointer variable followed by static segments and index variables. */
type Pointer = readonly { readonly text: string; readonly isVar: boolean }[];

/** Collect: append violations to `out`. Test: `return False` at the first one (inside a predicate). */
type Mode = 'collect' | 'test';

interface Scope {
  readonly value: string;
  readonly pointer: Pointer;
  readonly indent: string;
  readonly mode: Mode;
  readonly at: string;
}

export class PyValidatorCompiler {
  /** Module-level helpers (predicates, hoisted subschemas), in creation order. */
  readonly helpers: string[] = [];
  /** Module-level constants (compiled patterns). */
  readonly constants: string[] = [];
  private readonly helperNames = new Map<string, string>();
  private readonly constantNames = new Map<string, string>();
  /** Optional run-time helpers the compiled code needs: `re`, `base64`, `json-equality`. */
  readonly uses = new Set<string>();
  private counter = 0;

  constructor(private readonly definitions: Record<string, SchemaNode | boolean>) {}

  /** The name of the check function of a definition. */
  static checkName(definition: string): string {
    return `_check_${snakeCase(definition)}`;
  }

  /** `def <name>(v, p, out)` checking `schema`, as source text. */
  checkFunction(name: string, schema: unknown, at: string): string {
    const body = this.isolated(() =>
      this.node(schema, {
        value: 'v',
        pointer: [{ text: 'p', isVar: true }],
        indent: '    ',
        mode: 'collect',
        at,
      }),
    );
    const head = layoutPy(
      pyCallExpr(`def ${name}`, ['v: Any', 'p: str', 'out: _Out']),
      0,
      '',
      ' -> None:',
    );
    return [head, ...(body.length > 0 ? body : ['    pass'])].join('\n');
  }

  /** Compiles a function body with its own variable numbering, so identical bodies print identically. */
  private isolated(compile: () => string[]): string[] {
    const saved = this.counter;
    this.counter = 0;
    try {
      return compile();
    } finally {
      this.counter = saved;
    }
  }

  private node(schema: unknown, s: Scope): string[] {
    if (schema === true) return [];
    if (schema === false) return [this.fail(s, 'must not be present')];
    if (typeof schema !== 'object' || schema === null)
      throw new Error(`py-validators: ${s.at} is not a schema`);
    const node = schema as SchemaNode;
    for (const key of Object.keys(node)) {
      if (!SUPPORTED.has(key) && !IGNORED.has(key))
        throw new Error(
          `py-validators: unsupported keyword "${key}" at ${s.at}; add it to py-validator-compiler.ts`,
        );
    }
    const lines: string[] = [];
    if (typeof node['$ref'] === 'string')
      lines.push(...this.call(this.refCheck(node['$ref'], s.at), s));
    for (const [i, sub] of ((node['allOf'] ?? []) as unknown[]).entries())
      lines.push(...this.node(sub, { ...s, at: `${s.at}/allOf/${i}` }));
    if (Array.isArray(node['anyOf'])) lines.push(...this.anyOf(node['anyOf'], s));
    if ('not' in node) lines.push(...this.not(node['not'], s));
    if ('if' in node) lines.push(...this.ifThenElse(node, s));
    if ('const' in node)
      lines.push(
        ...this.guard(this.differs(s.value, [node['const']]), 'must be equal to constant', s),
      );
    if (Array.isArray(node['enum'])) {
      lines.push(
        ...this.guard(
          this.differs(s.value, node['enum']),
          'must be equal to one of the allowed values',
          s,
        ),
      );
    }
    const types =
      node['type'] === undefined
        ? []
        : Array.isArray(node['type'])
          ? (node['type'] as string[])
          : [node['type'] as string];
    const groups = GROUPS.map((group) => ({
      type: group.type,
      body: group.keywords.flatMap((k) =>
        k in node ? this.keyword(k, node, { ...s, indent: `${s.indent}    ` }) : [],
      ),
    })).filter((g) => g.body.length > 0);
    const single = types.length === 1 ? groups.find((g) => g.type === types[0]) : undefined;
    for (const group of groups) {
      lines.push(`${s.indent}if ${this.typeTest(group.type, s)}:`, ...group.body);
      if (group === single)
        lines.push(
          `${s.indent}else:`,
          this.fail({ ...s, indent: `${s.indent}    ` }, `must be ${types[0]}`),
        );
    }
    if (types.length > 0 && !single) {
      const test = types.map((t) => this.typeTest(t, s)).join(' or ');
      lines.push(
        ...this.guard(
          types.length > 1 ? `not (${test})` : `not ${test}`,
          `must be ${types.join(',')}`,
          s,
        ),
      );
    }
    return lines;
  }

  private keyword(key: string, node: SchemaNode, s: Scope): string[] {
    const v = s.value;
    switch (key) {
      case 'maximum':
        return this.guard(
          `${v} > ${num(node[key])} or ${v} != ${v}`,
          `must be <= ${num(node[key])}`,
          s,
        );
      case 'minimum':
        return this.guard(
          `${v} < ${num(node[key])} or ${v} != ${v}`,
          `must be >= ${num(node[key])}`,
          s,
        );
      case 'minLength': {
        const n = num(node[key]);
        // ajv (unicode: false) counts UTF-16 code units, which is at least the number of code points.
        const test =
          Number(n) <= 1 ? `len(${v}) < ${n}` : `len(${v}) < ${n} and _utf16_length(${v}) < ${n}`;
        return this.guard(test, `must NOT have fewer than ${n} characters`, s);
      }
      case 'pattern':
        this.uses.add('re');
        return this.guard(
          `${this.pattern(String(node[key]))}.search(${v}) is None`,
          `must match pattern "${String(node[key])}"`,
          s,
        );
      case 'contentEncoding':
        if (node[key] !== 'base64')
          throw new Error(
            `py-validators: contentEncoding ${String(node[key])} at ${s.at} is not supported`,
          );
        this.uses.add('base64');
        return this.guard(`not _is_canonical_base64(${v})`, 'must be canonical padded base64', s);
      case 'minItems':
        return this.guard(
          `len(${v}) < ${num(node[key])}`,
          `must NOT have fewer than ${num(node[key])} items`,
          s,
        );
      case 'items':
        return this.items(node[key], s);
      case 'required':
        return (node[key] as string[]).flatMap((name) =>
          this.guard(`${pyStr(name)} not in ${v}`, `must have required property '${name}'`, {
            ...s,
            pointer: child(s.pointer, name),
          }),
        );
      case 'properties':
        return this.properties(node[key] as Record<string, unknown>, s);
      case 'additionalProperties':
        if (node[key] === true) return [];
        throw new Error(
          `py-validators: additionalProperties other than true at ${s.at} is not supported`,
        );
      default:
        throw new Error(`py-validators: no rule for ${key}`);
    }
  }

  private properties(properties: Record<string, unknown>, s: Scope): string[] {
    const lines: string[] = [];
    for (const [name, sub] of Object.entries(properties)) {
      if (
        sub === true ||
        (typeof sub === 'object' && sub !== null && Object.keys(sub).length === 0)
      )
        continue;
      const at = `${s.at}/properties/${name}`;
      const pointer = child(s.pointer, name);
      if (sub === false) {
        lines.push(
          ...this.guard(`${pyStr(name)} in ${s.value}`, 'must not be present', { ...s, pointer }),
        );
        continue;
      }
      const value = this.fresh('x');
      const inner = this.node(sub, { ...s, value, pointer, indent: `${s.indent}    `, at });
      if (inner.length === 0) continue;
      lines.push(
        `${s.indent}${value} = ${s.value}.get(${pyStr(name)}, _ABSENT)`,
        `${s.indent}if ${value} is not _ABSENT:`,
        ...inner,
      );
    }
    return lines;
  }

  private items(items: unknown, s: Scope): string[] {
    const index = this.fresh('i');
    const value = this.fresh('x');
    const inner = this.node(items, {
      ...s,
      value,
      pointer: [...s.pointer, { text: index, isVar: true }],
      indent: `${s.indent}    `,
      at: `${s.at}/items`,
    });
    return inner.length === 0
      ? []
      : [`${s.indent}for ${index}, ${value} in enumerate(${s.value}):`, ...inner];
  }

  private anyOf(branches: unknown[], s: Scope): string[] {
    const checks = branches.map((b, i) => this.hoist(b, `${s.at}/anyOf/${i}`));
    if (s.mode === 'test')
      return [
        `${s.indent}if not any(_passes(c, ${s.value}) for c in ${pyTupleText(checks)}):`,
        `${s.indent}    return False`,
      ];
    const call = pyCallExpr('_any_of', [
      s.value,
      pointerExpr(s.pointer),
      'out',
      pyTupleExpr(checks),
    ]);
    return [layoutPy(call, s.indent.length)];
  }

  private not(sub: unknown, s: Scope): string[] {
    const check = this.hoist(sub, `${s.at}/not`);
    return this.guard(`_passes(${check}, ${s.value})`, 'must NOT be valid', s);
  }

  /** if/then/else, with an `else` that is itself only an if/then/else printed as `elif`. */
  private ifThenElse(node: SchemaNode, s: Scope): string[] {
    const lines: string[] = [];
    let current: SchemaNode | undefined = node;
    let at = s.at;
    let keyword = 'if';
    const inner = { ...s, indent: `${s.indent}    ` };
    while (current) {
      const test = this.predicate(current['if'], `${at}/if`);
      lines.push(`${s.indent}${keyword} ${test}(${s.value}):`);
      const then =
        'then' in current ? this.node(current['then'], { ...inner, at: `${at}/then` }) : [];
      lines.push(...(then.length > 0 ? then : [`${inner.indent}pass`]));
      const otherwise: unknown = current['else'];
      const isChain =
        isPlainObject(otherwise) &&
        Object.keys(otherwise).every((k) => ['if', 'then', 'else'].includes(k)) &&
        'if' in otherwise;
      if (isChain) {
        current = otherwise as SchemaNode;
        at = `${at}/else`;
        keyword = 'elif';
        continue;
      }
      const elseLines =
        otherwise === undefined ? [] : this.node(otherwise, { ...inner, at: `${at}/else` });
      if (elseLines.length > 0) lines.push(`${s.indent}else:`, ...elseLines);
      current = undefined;
    }
    return lines;
  }

  /** A module-level `(v) -> bool` that is true when `schema` holds; identical ones are shared. */
  private predicate(schema: unknown, at: string): string {
    const body = this.isolated(() =>
      this.node(schema, { value: 'v', pointer: [], indent: '    ', mode: 'test', at }),
    );
    return this.helper('_matches', ['v: Any'], '-> bool', [...body, '    return True']);
  }

  /** A module-level check function for a subschema (a definition's own for a `$ref`). */
  private hoist(schema: unknown, at: string): string {
    if (
      isPlainObject(schema) &&
      Object.keys(schema).length === 1 &&
      typeof schema['$ref'] === 'string'
    ) {
      return this.refCheck(schema['$ref'], at);
    }
    const body = this.isolated(() =>
      this.node(schema, {
        value: 'v',
        pointer: [{ text: 'p', isVar: true }],
        indent: '    ',
        mode: 'collect',
        at,
      }),
    );
    return this.helper(
      '_check',
      ['v: Any', 'p: str', 'out: _Out'],
      '-> None',
      body.length > 0 ? body : ['    pass'],
    );
  }

  private helper(prefix: string, params: string[], returns: string, body: string[]): string {
    const key = `${prefix}|${body.join('\n')}`;
    const known = this.helperNames.get(key);
    if (known) return known;
    const name = `${prefix}_${this.helperNames.size}`;
    this.helperNames.set(key, name);
    this.helpers.push(
      [layoutPy(pyCallExpr(`def ${name}`, params), 0, '', ` ${returns}:`), ...body].join('\n'),
    );
    return name;
  }

  private refCheck(ref: string, at: string): string {
    const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
    if (!name || !(name in this.definitions))
      throw new Error(`py-validators: unresolvable $ref "${ref}" at ${at}`);
    return PyValidatorCompiler.checkName(name);
  }

  private call(check: string, s: Scope): string[] {
    if (s.mode === 'test')
      return [`${s.indent}if not _passes(${check}, ${s.value}):`, `${s.indent}    return False`];
    return [layoutPy(pyCallExpr(check, [s.value, pointerExpr(s.pointer), 'out']), s.indent.length)];
  }

  private guard(test: string, message: string, s: Scope): string[] {
    return [`${s.indent}if ${test}:`, this.fail({ ...s, indent: `${s.indent}    ` }, message)];
  }

  private fail(s: Scope, message: string): string {
    if (s.mode === 'test') return `${s.indent}return False`;
    return layoutPy(
      pyCallExpr('out.append', [pyTupleExpr([pointerExpr(s.pointer), pyStr(message)])]),
      s.indent.length,
    );
  }

  private typeTest(type: string, s: Scope): string {
    const test = TYPE_TEST[type];
    if (!test) throw new Error(`py-validators: unknown type "${type}" at ${s.at}`);
    return test(s.value);
  }

  /** A test that holds when `value` is none of `allowed` (JSON equality: `True` is not `1`). */
  private differs(value: string, allowed: unknown[]): string {
    if (allowed.length === 1 && typeof allowed[0] === 'string')
      return `${value} != ${pyStr(allowed[0])}`;
    if (allowed.every((a) => typeof a === 'string')) {
      const set = this.constant(
        '_STRINGS',
        pyCallExpr('frozenset', [pyTupleExpr(allowed.map((a) => pyStr(a as string)))]),
      );
      return `not (isinstance(${value}, str) and ${value} in ${set})`;
    }
    this.uses.add('json-equality');
    return `not _json_in(${value}, ${this.constant('_VALUES', pyTupleExpr(allowed.map(pyLiteral)))})`;
  }

  private pattern(pattern: string): string {
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

  private fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }
}

function child(pointer: Pointer, name: string): Pointer {
  return [...pointer, { text: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, isVar: false }];
}

/** The pointer as a Python expression: `p`, `p + "/cwd"` or `f"{p}/contentBlocks/{i3}"`. */
export function pointerExpr(pointer: Pointer): string {
  if (pointer.length === 0) return '""';
  const parts = pointer.map((part) => ({ ...part, text: part.isVar ? part.text : part.text }));
  if (parts.length === 1 && parts[0]?.isVar) return parts[0].text;
  if (parts.length === 2 && parts[0]?.isVar && parts[1] && !parts[1].isVar)
    return `${parts[0].text} + ${pyStr(parts[1].text)}`;
  const body = parts
    .map((part, i) => {
      if (part.isVar) return `${i > 0 ? '/' : ''}{${part.text}}`;
      if (/["'\\{}\n]/.test(part.text))
        throw new Error(`py-validators: property name in ${part.text} needs escaping`);
      return part.text;
    })
    .join('');
  return `f"${body}"`;
}

function pyTupleText(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

function num(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`py-validators: ${String(value)} is not a number`);
  return String(value);
}

function isPlainObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
