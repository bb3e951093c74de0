// The statements every schema check is built from, and the combinators that hoist subschemas into
// module-level functions (`$ref`, `not`, `anyOf`, `if`/`then`/`else`): the part of the Python
// validator compiler that does not depend on which keyword is compiled. py-validator-compiler.ts
// compiles the keywords on top of it.
import type { SchemaNode } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import {
  layoutPy,
  pyCallExpr,
  pyStr,
  pyTuple,
  pyTupleExpr,
  PY_LINE_LENGTH,
} from './py-literals.js';
import type { Pointer } from './py-validator-module.js';
import { RepairAnalysis } from './py-fast-path.js';
import {
  isPlainObject,
  ModuleParts,
  pointerExpr,
  ROOT_POINTER,
  TYPE_TEST,
} from './py-validator-module.js';

/**
 * collect: append violations to `out`. test: `return False` at the first one (in a predicate).
 * fast: `return False` at the first one or at a repair, calling fast checks (py-fast-path.ts).
 */
export type Mode = 'collect' | 'test' | 'fast';

/** Where a value sits in its parent, for the lenient repairs that remove or replace it. */
export interface Slot {
  readonly container: string;
  readonly key: string;
  readonly isItem: boolean;
}

export interface Scope {
  readonly value: string;
  /** The value's place in its parent; absent at the root of a check function. */
  readonly slot?: Slot;
  readonly pointer: Pointer;
  readonly indent: string;
  readonly mode: Mode;
  /** Where in the bundle the schema is, for error messages. */
  readonly at: string;
}

export abstract class PyCheckWriter {
  readonly parts = new ModuleParts();
  private counter = 0;
  /** The definitions whose fast check is called, in the order first called. */
  readonly fastCalled = new Set<string>();
  private repairAnalysis: RepairAnalysis | undefined;
  constructor(protected readonly definitions: Record<string, unknown>) {}

  /** The schema of every definition, by name. */
  get definitionSchemas(): Readonly<Record<string, unknown>> {
    return this.definitions;
  }

  /** The name of the check function of a definition. */
  static checkName(definition: string): string {
    return `_check_${snakeCase(definition)}`;
  }

  /** The name of the fast check (a boolean) of a definition. */
  static fastName(definition: string): string {
    return `_valid_${snakeCase(definition)}`;
  }

  protected repairFree(schema: unknown): boolean {
    this.repairAnalysis ??= new RepairAnalysis(this.definitions);
    return this.repairAnalysis.repairFree(schema);
  }

  /** Compiles a function body with its own variable numbering, so identical bodies print identically. */
  protected isolated(compile: () => string[]): string[] {
    const saved = this.counter;
    this.counter = 0;
    try {
      return compile();
    } finally {
      this.counter = saved;
    }
  }

  protected anyOf(branches: unknown[], s: Scope): string[] {
    if (s.mode === 'fast') return this.fastAnyOf(branches, s);
    const checks = branches.map((b, i) => this.hoist(b, `${s.at}/anyOf/${i}`));
    if (s.mode === 'test') {
      const passes = this.parts.use('passes');
      // A lone generator argument takes no trailing comma: wrapped, it stays one line inside.
      const generator = `${passes}(c, ${s.value}) for c in ${pyTuple(checks)}`;
      const line = `${s.indent}if not any(${generator}):`;
      const test =
        line.length <= PY_LINE_LENGTH
          ? [line]
          : [`${s.indent}if not any(`, `${s.indent}    ${generator}`, `${s.indent}):`];
      return [...test, `${s.indent}    return False`];
    }
    const call = pyCallExpr(this.parts.use('any_of'), [
      s.value,
      pointerExpr(s.pointer),
      'out',
      pyTupleExpr(checks),
    ]);
    return [layoutPy(call, s.indent.length)];
  }

  /**
   * anyOf in a fast check: one branch passing suffices. The full check runs the branches in order,
   * repairing as it goes, so past a branch that can repair only the full check can tell.
   */
  private fastAnyOf(branches: unknown[], s: Scope): string[] {
    const exact = branches.every((b) => this.repairFree(b));
    const used = exact ? branches : branches.slice(0, 1);
    const tests = used.map((b, i) => `${this.hoist(b, `${s.at}/anyOf/${i}`, 'fast')}(${s.value})`);
    return this.guard(`not (${tests.join(' or ')})`, '', s);
  }

  /** if/then/else; an `else` that is only another if/then/else prints as `elif` (dispatch chains). */
  protected ifThenElse(node: SchemaNode, s: Scope): string[] {
    const dispatch = s.mode === 'test' ? null : tagDispatch(node);
    if (dispatch) return this.tableDispatch(dispatch, s);
    const lines: string[] = [];
    const inner = { ...s, indent: `${s.indent}    ` };
    let current: SchemaNode | null = node;
    let at = s.at;
    let keyword = 'if';
    while (current) {
      const test = this.ifTest(current['if'], `${at}/if`, s);
      lines.push(`${s.indent}${keyword} ${test}(${s.value}):`);
      const then =
        'then' in current ? this.node(current['then'], { ...inner, at: `${at}/then` }) : [];
      lines.push(...(then.length > 0 ? then : [`${inner.indent}pass`]));
      const otherwise: unknown = current['else'];
      if (s.mode === 'fast' && !this.repairFree(current['if'])) {
        // The fast test fails where the full one would repair, so only the full check can tell.
        lines.push(`${s.indent}else:`, this.fail(inner, ''));
        break;
      }
      if (isChainLink(otherwise)) {
        [current, at, keyword] = [otherwise, `${at}/else`, 'elif'];
        continue;
      }
      const elseLines =
        otherwise === undefined ? [] : this.node(otherwise, { ...inner, at: `${at}/else` });
      if (elseLines.length > 0) lines.push(`${s.indent}else:`, ...elseLines);
      current = null;
    }
    return s.mode === 'fast' ? fastGuard(lines) : lines;
  }

  /** The function that tests an `if` schema: a predicate, or in a fast check its fast check. */
  private ifTest(schema: unknown, at: string, s: Scope): string {
    return s.mode === 'fast' ? this.hoist(schema, at, 'fast') : this.predicate(schema, at);
  }

  /**
   * A discriminated union's chain (`if` the tag is X `then` X's check, else the next) as one table
   * look-up instead of one test a variant. Same verdicts: a value that is not an object meets the
   * first `if` (`properties` and `required` hold for it), and a tag that is missing, not a string or
   * not in the table meets no `if`, so the last `else` checks it.
   */
  private tableDispatch(chain: TagDispatch, s: Scope): string[] {
    const inner = { ...s, indent: `${s.indent}    ` };
    const checks = chain.links.map(
      ([tag, then], i) => [tag, this.hoist(then, `${chain.at[i]}/then`, s.mode)] as const,
    );
    const [[, first]] = checks as [readonly [string, string]];
    const table = this.parts.checkTable(checks, s.mode === 'fast' ? 'Predicate' : 'Check');
    const tag = this.fresh('x');
    const check = this.fresh('x');
    const otherwise =
      chain.otherwise === undefined
        ? []
        : this.node(chain.otherwise, { ...inner, indent: `${inner.indent}    `, at: chain.elseAt });
    return [
      `${s.indent}if not isinstance(${s.value}, dict):`,
      ...this.call(first, inner),
      `${s.indent}else:`,
      `${inner.indent}${tag} = ${s.value}.get(${pyStr(chain.discriminator)})`,
      `${inner.indent}${check} = ${table}.get(${tag}) if isinstance(${tag}, str) else None`,
      `${inner.indent}if ${check} is not None:`,
      ...this.call(check, { ...inner, indent: `${inner.indent}    ` }),
      ...(otherwise.length > 0 ? [`${inner.indent}else:`, ...otherwise] : []),
    ];
  }

  /** A module-level `(v) -> bool` that is true when `schema` holds; identical ones are shared. */
  protected predicate(schema: unknown, at: string): string {
    const body = this.isolated(() =>
      this.node(schema, { value: 'v', pointer: [], indent: '    ', mode: 'test', at }),
    );
    return this.parts.helper('_matches', ['v: Any'], '-> bool', [...body, '    return True']);
  }

  /** A module-level check function for a subschema (a definition's own for a `$ref`). */
  protected hoist(schema: unknown, at: string, mode: Mode = 'collect'): string {
    if (
      isPlainObject(schema) &&
      Object.keys(schema).length === 1 &&
      typeof schema['$ref'] === 'string'
    ) {
      return this.refCheck(schema['$ref'], at, mode);
    }
    if (mode === 'fast') {
      const fast: Scope = { value: 'v', pointer: [], indent: '    ', mode, at };
      const body = this.isolated(() => this.node(schema, fast));
      return this.parts.helper('_valid', ['v: Any'], '-> bool', [...body, '    return True']);
    }
    const scope: Scope = { value: 'v', pointer: ROOT_POINTER, indent: '    ', mode: 'collect', at };
    const body = this.isolated(() => this.node(schema, scope));
    return this.parts.helper(
      '_check',
      ['v: Any', 'p: str', `out: ${this.parts.use('Out')}`],
      '-> None',
      body.length > 0 ? body : ['    pass'],
    );
  }

  protected refCheck(ref: string, at: string, mode: Mode = 'collect'): string {
    const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : '';
    if (!(name in this.definitions))
      throw new Error(`py-validators: unresolvable $ref "${ref}" at ${at}`);
    if (mode !== 'fast') return PyCheckWriter.checkName(name);
    this.fastCalled.add(name);
    return PyCheckWriter.fastName(name);
  }

  /** A call of `check`; in a fast check, `check` is a fast one. */
  protected call(check: string, s: Scope): string[] {
    if (s.mode === 'fast') return this.guard(`not ${check}(${s.value})`, '', s);
    if (s.mode === 'test') {
      const passes = this.parts.use('passes');
      return [`${s.indent}if not ${passes}(${check}, ${s.value}):`, `${s.indent}    return False`];
    }
    return [layoutPy(pyCallExpr(check, [s.value, pointerExpr(s.pointer), 'out']), s.indent.length)];
  }

  protected guard(test: string, message: string, s: Scope): string[] {
    return [`${s.indent}if ${test}:`, this.fail({ ...s, indent: `${s.indent}    ` }, message)];
  }

  protected fail(s: Scope, message: string): string {
    if (s.mode !== 'collect') return `${s.indent}return False`;
    const violation = pyTupleExpr([pointerExpr(s.pointer), pyStr(message)]);
    return layoutPy(pyCallExpr('out.append', [violation]), s.indent.length);
  }

  protected typeTest(type: string, s: Scope): string {
    const test = TYPE_TEST[type];
    if (!test) throw new Error(`py-validators: unknown type "${type}" at ${s.at}`);
    return test(s.value, this.parts);
  }

  protected fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  /** The statements checking `schema` in scope `s` (the keyword compiler). */
  protected abstract node(schema: unknown, s: Scope): string[];
}

/** `if t(v): pass / else: return False` (a fast `if` that can only fail) as `if not t(v): ...`. */
function fastGuard(lines: string[]): string[] {
  const [test, pass, otherwise, fail] = lines;
  if (lines.length !== 4 || !pass?.endsWith(' pass') || !fail?.endsWith(' return False'))
    return lines;
  if (!test?.trimStart().startsWith('if ') || !otherwise?.trimStart().startsWith('else:'))
    return lines;
  return [test.replace('if ', 'if not '), fail];
}

/** An if/then/else chain that only dispatches on one member's string value. */
interface TagDispatch {
  readonly discriminator: string;
  /** Each tag with the schema its `then` applies, in chain order. */
  readonly links: readonly (readonly [string, unknown])[];
  /** Where each link's `if` node sits, for error messages. */
  readonly at: readonly string[];
  readonly otherwise: unknown;
  readonly elseAt: string;
}

/**
 * The chain starting at `node` when every `if` is exactly `{properties: {D: {const: "tag"}},
 * required: [D]}` with one D and distinct tags (schema/validation.ts writes these for discriminated
 * unions); null otherwise, as when a variant also requires members to be told apart.
 */
function tagDispatch(node: SchemaNode): TagDispatch | null {
  const links: [string, unknown][] = [];
  const at: string[] = [];
  let discriminator = '';
  let current: SchemaNode = node;
  let path = '';
  while (true) {
    const link = current;
    const tested = tagTest(link['if']);
    if (!tested || (links.length > 0 && tested.discriminator !== discriminator)) return null;
    if (links.some(([tag]) => tag === tested.tag)) return null;
    discriminator = tested.discriminator;
    links.push([tested.tag, link['then'] ?? {}]);
    at.push(path);
    const otherwise: unknown = link['else'];
    if (isChainLink(otherwise)) {
      current = otherwise;
      path = `${path}/else`;
      continue;
    }
    if (links.length < 2) return null;
    return { discriminator, links, at, otherwise, elseAt: `${path}/else` };
  }
}

function tagTest(schema: unknown): { discriminator: string; tag: string } | null {
  if (!isPlainObject(schema)) return null;
  const keys = Object.keys(schema).sort();
  if (keys.join() !== 'properties,required') return null;
  const { properties, required } = schema;
  if (!isPlainObject(properties) || !Array.isArray(required) || required.length !== 1) return null;
  const [discriminator] = required;
  const names = Object.keys(properties);
  if (typeof discriminator !== 'string' || names.length !== 1 || names[0] !== discriminator)
    return null;
  const test = properties[discriminator];
  if (!isPlainObject(test) || Object.keys(test).join() !== 'const') return null;
  return typeof test['const'] === 'string' ? { discriminator, tag: test['const'] } : null;
}

/** An `else` that is only another if/then/else: the next link of a dispatch chain. */
function isChainLink(node: unknown): node is SchemaNode {
  return (
    isPlainObject(node) &&
    'if' in node &&
    Object.keys(node).every((k) => ['if', 'then', 'else'].includes(k))
  );
}
