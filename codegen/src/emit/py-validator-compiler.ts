// JSON Schema (the validation bundle) → Python statements that report violations the way ajv does
// with `allErrors: true`: every keyword is checked, type-specific keywords only for values of their
// type, `if` only selects (its own errors are never reported), `anyOf` reports every branch when
// none passes. Messages are ajv's, except a `false` schema, which says what violations.ts says.
// Order is ajv's too (its rule groups, lib/compile/rules.ts, in vocabulary order): `type` first when
// no keyword of that one type needs a type test anyway, then `$ref`, `const`, `enum`, `not`, `anyOf`,
// `allOf`, `if`, then each type's keywords under one test of the type, in GROUPS order.
// What does not depend on the schema is called from python/src/dsh_sdk/validation_runtime.py.
import type { SchemaNode } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import { PyCheckWriter } from './py-check-writer.js';
import { OpenContentImplication, passesEveryString } from './py-fast-path.js';
import type { Scope } from './py-check-writer.js';
import type { PyExpr } from './py-literals.js';
import { PY_LINE_LENGTH } from './py-literals.js';
import { layoutPy, pyCallExpr, pyLiteralExpr, pyStr, pyTuple, pyTupleExpr } from './py-literals.js';
import type { Pointer } from './py-validator-module.js';
import {
  child,
  GROUPS,
  IGNORED,
  isPlainObject,
  itemOf,
  ModuleParts,
  num,
  pointerExpr,
  ROOT_POINTER,
  SUPPORTED,
  TYPE_TEST,
} from './py-validator-module.js';

const ABSENT_MESSAGE = 'must not be present';

type Group = (typeof GROUPS)[number];

function typeList(node: SchemaNode): string[] {
  const raw = node['type'];
  return raw === undefined ? [] : Array.isArray(raw) ? (raw as string[]) : [String(raw)];
}

export class PyValidatorCompiler extends PyCheckWriter {
  /** Definitions being compiled in place, whose references inside stay calls. */
  protected readonly inlined = new Set<string>();
  /** In a fast check, the members of a variant that its base, compiled in place, may skip. */
  private checkedElsewhere: { value: string; properties: Record<string, unknown> } | undefined;
  private openContent: OpenContentImplication | undefined;

  /** `def <name>(v, p, out)` checking `schema`, as source text. */
  checkFunction(name: string, schema: unknown, at: string): string {
    const scope: Scope = { value: 'v', pointer: ROOT_POINTER, indent: '    ', mode: 'collect', at };
    const body = this.isolated(() => this.node(schema, scope));
    const head = layoutPy(
      pyCallExpr(`def ${name}`, ['v: Any', 'p: str', `out: ${this.parts.use('Out')}`]),
      0,
      '',
      ' -> None:',
    );
    return [head, ...(body.length > 0 ? body : ['    pass'])].join('\n');
  }

  /** `def <name>(v) -> bool`: the fast check of `schema` (py-fast-path.ts). */
  fastFunction(name: string, schema: unknown, at: string): string {
    const scope: Scope = { value: 'v', pointer: [], indent: '    ', mode: 'fast', at };
    const body = this.isolated(() => this.node(schema, scope));
    return [`def ${name}(v: Any) -> bool:`, ...body, '    return True'].join('\n');
  }

  protected node(schema: unknown, s: Scope): string[] {
    if (schema === true) return [];
    if (schema === false) return [this.fail(s, ABSENT_MESSAGE)];
    if (!isPlainObject(schema)) throw new Error(`py-validators: ${s.at} is not a schema`);
    for (const key of Object.keys(schema)) {
      if (SUPPORTED.has(key) || IGNORED.has(key)) continue;
      throw new Error(
        `py-validators: unsupported keyword "${key}" at ${s.at}; teach it to py-validator-compiler.ts`,
      );
    }
    const types = typeList(schema);
    const used = GROUPS.filter((g) => g.keywords.some((k) => k in schema));
    // ajv tests the type in the group of its one type when that group is used, otherwise first.
    const single = types.length === 1 ? used.find((g) => g.type === types[0]) : undefined;
    return [
      ...(types.length > 0 && !single ? this.typeGuard(types, s) : []),
      ...this.untyped(schema, s),
      ...this.typed(schema, used, single, s),
    ];
  }

  /** Keywords of every type, in ajv's order: $ref, const, enum, not, anyOf, allOf, if/then/else. */
  protected untyped(node: SchemaNode, s: Scope): string[] {
    const lines: string[] = [];
    if (typeof node['$ref'] === 'string') lines.push(...this.ref(node['$ref'], s));
    lines.push(...this.values(node, s));
    if ('not' in node && s.mode === 'fast') {
      // Where the negated schema repairs, its fast check fails for values the full check keeps.
      const exact = this.repairFree(node['not']);
      const check = exact ? this.hoist(node['not'], `${s.at}/not`, 'fast') : undefined;
      lines.push(...(check ? this.guard(`${check}(${s.value})`, '', s) : [this.fail(s, '')]));
    } else if ('not' in node) {
      const check = this.hoist(node['not'], `${s.at}/not`);
      const passes = this.parts.use('passes');
      lines.push(...this.guard(`${passes}(${check}, ${s.value})`, 'must NOT be valid', s));
    }
    if (Array.isArray(node['anyOf'])) lines.push(...this.anyOf(node['anyOf'], s));
    const allOf = (node['allOf'] ?? []) as unknown[];
    allOf.forEach((sub, i) => {
      const part = { ...s, at: `${s.at}/allOf/${i}` };
      lines.push(
        ...(s.mode === 'fast' ? this.fastAllOfPart(sub, node, part) : this.node(sub, part)),
      );
    });
    if ('if' in node) lines.push(...this.ifThenElse(node, s));
    lines.push(...this.repair(node, s));
    return lines;
  }

  /**
   * The lenient repairs (schema/lenient.ts) as ajv-keywords.ts makes ajv run them: a member is
   * removed or replaced in its parent; an array item is marked DROPPED for `x-lenient-compact`.
   */
  protected repair(node: SchemaNode, s: Scope): string[] {
    const drop = node['x-lenient-drop'] === true;
    const replace = 'x-lenient-default' in node;
    if (!drop && !replace) return [];
    // A fast check repairs nothing: the full check does.
    if (s.mode === 'fast') return [this.fail(s, '')];
    const slot = s.slot;
    if (!slot) throw new Error(`py-validators: a repair at ${s.at} has no parent to repair in`);
    const place = `${slot.container}[${slot.key}]`;
    if (replace)
      return [layoutPy(pyLiteralExpr(node['x-lenient-default']), s.indent.length, `${place} = `)];
    if (slot.isItem) return [`${s.indent}${place} = ${this.parts.use('DROPPED')}`];
    return [`${s.indent}del ${place}`];
  }

  /**
   * A `$ref`: a call of the definition's check, or its statements in place when it is a scalar
   * leaf (`Count`, `SessionId`): the same violations in the same order, without a call and a
   * pointer string built for a value that passes.
   */
  protected ref(ref: string, s: Scope): string[] {
    const check = this.refCheck(ref, s.at, s.mode);
    const target = this.definitions[ref.slice(REF_PREFIX.length)];
    if (s.mode === 'fast' && passesEveryString(target))
      return this.guard(`not (isinstance(${s.value}, str) or ${check}(${s.value}))`, '', s);
    if (!isScalarLeaf(target)) return this.call(check, s);
    return this.node(target, { ...s, at: ref });
  }

  /** const and enum: they apply to values of every type. */
  protected values(node: SchemaNode, s: Scope): string[] {
    const lines: string[] = [];
    if ('const' in node) {
      lines.push(
        ...this.guard(this.parts.differs(s.value, [node['const']]), 'must be equal to constant', s),
      );
    }
    if (Array.isArray(node['enum'])) {
      const test = this.parts.differs(s.value, node['enum']);
      lines.push(...this.guard(test, 'must be equal to one of the allowed values', s));
    }
    return lines;
  }

  /** The keywords of each used JSON type under one test of that type; `single` also reports `type`. */
  protected typed(
    node: SchemaNode,
    used: typeof GROUPS,
    single: Group | undefined,
    s: Scope,
  ): string[] {
    const inner = { ...s, indent: `${s.indent}    ` };
    const lines: string[] = [];
    // A value has one JSON type, so the tests can chain (`elif`) unless `single` reports `type`.
    let keyword = 'if';
    for (const group of used) {
      const body = group.keywords.flatMap((k) => (k in node ? this.keyword(k, node, inner) : []));
      if (body.length === 0) {
        if (group === single) lines.push(...this.typeGuard([group.type], s));
        continue;
      }
      lines.push(`${s.indent}${keyword} ${this.typeTest(group.type, s)}:`, ...body);
      if (group === single)
        lines.push(
          `${s.indent}else:`,
          // ajv reports the custom keyword before `type`: the same order here.
          ...this.missingWhenNotObject(node, inner),
          this.fail(inner, `must be ${group.type}`),
        );
      keyword = single ? 'if' : 'elif';
    }
    const chained = lines.filter((line) => line.startsWith(`${s.indent}elif `)).length;
    if (s.mode === 'fast' && !single && passesEveryString(node) && chained > 0) {
      // Open content is mostly strings, which pass: one test instead of one a type.
      const first = `${s.indent}if `;
      lines[0] = `${s.indent}elif ${lines[0]?.slice(first.length) ?? ''}`;
      lines.unshift(`${first}isinstance(${s.value}, str):`, `${inner.indent}pass`);
    }
    return lines;
  }

  /** ajv's `type` error: `must be string`, `must be string,number`. */
  protected typeGuard(types: readonly string[], s: Scope): string[] {
    const tests = types.map((t) => this.typeTest(t, s));
    const message = `must be ${types.join(',')}`;
    const [only] = tests;
    if (only !== undefined && tests.length === 1) {
      const negated = only.endsWith(' is None') ? `${only.slice(0, -4)}not None` : `not ${only}`;
      return this.guard(negated, message, s);
    }
    const fail = this.fail({ ...s, indent: `${s.indent}    ` }, message);
    const line = `${s.indent}if not (${tests.join(' or ')}):`;
    if (line.length <= PY_LINE_LENGTH) return [line, fail];
    // As ruff format splits a long condition: inside the parentheses, one operand a line.
    const inner = `${s.indent}    `;
    const operands = tests.map((t, i) => `${inner}${i > 0 ? 'or ' : ''}${t}`);
    const joined = `${inner}${tests.join(' or ')}`;
    const body = joined.length <= PY_LINE_LENGTH ? [joined] : operands;
    return [`${s.indent}if not (`, ...body, `${s.indent}):`, fail];
  }

  /** `x-not-object-lacks-required`: a value that is not an object also misses every required member. */
  protected missingWhenNotObject(node: SchemaNode, s: Scope): string[] {
    if (node['x-not-object-lacks-required'] !== true || s.mode !== 'collect') return [];
    return ((node['required'] ?? []) as string[]).map((name) =>
      this.fail({ ...s, pointer: child(s.pointer, name) }, `must have required property '${name}'`),
    );
  }

  protected keyword(key: string, node: SchemaNode, s: Scope): string[] {
    const v = s.value;
    const limit = node[key];
    switch (key) {
      case 'maximum':
        return this.guard(`${v} > ${num(limit)} or ${v} != ${v}`, `must be <= ${num(limit)}`, s);
      case 'minimum':
        return this.guard(`${v} < ${num(limit)} or ${v} != ${v}`, `must be >= ${num(limit)}`, s);
      case 'minLength': {
        // ajv (unicode: false) counts UTF-16 code units, never fewer than code points.
        const n = num(limit);
        const test =
          Number(n) <= 1
            ? `len(${v}) < ${n}`
            : `len(${v}) < ${n} and ${this.parts.use('utf16_length')}(${v}) < ${n}`;
        return this.guard(test, `must NOT have fewer than ${n} characters`, s);
      }
      case 'pattern':
        return this.guard(
          `${this.parts.pattern(String(limit))}.search(${v}) is None`,
          `must match pattern "${String(limit)}"`,
          s,
        );
      case 'contentEncoding':
        if (limit !== 'base64')
          throw new Error(
            `py-validators: contentEncoding ${String(limit)} at ${s.at} is not supported`,
          );
        return this.guard(
          `not ${this.parts.use('is_canonical_base64')}(${v})`,
          'must be canonical padded base64',
          s,
        );
      case 'minItems':
        return this.guard(
          `len(${v}) < ${num(limit)}`,
          `must NOT have fewer than ${num(limit)} items`,
          s,
        );
      case 'items':
        return this.items(limit, s);
      case 'x-lenient-compact':
        // A fast check has failed before marking an item.
        return limit === true && s.mode !== 'fast'
          ? [`${s.indent}${this.parts.use('drop_marked')}(${v})`]
          : [];
      case 'required':
        return (limit as string[]).flatMap((name) =>
          this.guard(`${pyStr(name)} not in ${v}`, `must have required property '${name}'`, {
            ...s,
            pointer: child(s.pointer, name),
          }),
        );
      case 'properties':
        return this.properties(limit as Record<string, unknown>, node, s);
      case 'additionalProperties':
        return this.additionalProperties(limit, node, s);
      default:
        throw new Error(`py-validators: no rule for ${key}`);
    }
  }

  protected properties(properties: Record<string, unknown>, node: SchemaNode, s: Scope): string[] {
    if (s.mode === 'fast') return this.fastProperties(properties, node, s);
    const lines: string[] = [];
    for (const [name, sub] of Object.entries(properties)) {
      const pointer = child(s.pointer, name);
      if (sub === false) {
        lines.push(
          ...this.guard(`${pyStr(name)} in ${s.value}`, ABSENT_MESSAGE, { ...s, pointer }),
        );
        continue;
      }
      const value = this.fresh('x');
      const at = `${s.at}/properties/${name}`;
      const slot = { container: s.value, key: pyStr(name), isItem: false };
      const inner = this.node(sub, { ...s, value, slot, pointer, indent: `${s.indent}    `, at });
      if (inner.length === 0) continue;
      const absent = this.parts.use('ABSENT');
      lines.push(
        `${s.indent}${value} = ${s.value}.get(${pyStr(name)}, ${absent})`,
        `${s.indent}if ${value} is not ${absent}:`,
        ...inner,
      );
    }
    return lines;
  }

  /**
   * `properties` in a fast check: a member `required` named is there (that test came first), and
   * an optional one is looked for with `in`, cheaper than a `get` when it is absent, as most are.
   */
  private fastProperties(
    properties: Record<string, unknown>,
    node: SchemaNode,
    s: Scope,
  ): string[] {
    const required = new Set((node['required'] ?? []) as string[]);
    return Object.entries(properties).flatMap(([name, sub]) => {
      const key = pyStr(name);
      if (sub === false) return this.guard(`${key} in ${s.value}`, '', s);
      const present = required.has(name);
      const value = this.fresh('x');
      const indent = present ? s.indent : `${s.indent}    `;
      const at = `${s.at}/properties/${name}`;
      const inner = this.node(sub, { ...s, value, pointer: [], indent, at });
      if (inner.length === 0) return [];
      const read = `${indent}${value} = ${s.value}[${key}]`;
      return present ? [read, ...inner] : [`${s.indent}if ${key} in ${s.value}:`, read, ...inner];
    });
  }

  /**
   * Members `properties` does not name, checked against the schema in the order ajv's `for…in`
   * meets them (array-index names first); the set test keeps objects without such members cheap.
   * A referenced definition is compiled in place, once (its own references stay calls), so that a
   * member's pointer is only built when it is reported: open content is mostly scalars that pass.
   */
  protected additionalProperties(schema: unknown, node: SchemaNode, s: Scope): string[] {
    if (schema === true) return [];
    const names = Object.keys((node['properties'] ?? {}) as Record<string, unknown>);
    const known = this.parts.keySet(names);
    if (s.mode === 'fast') return this.fastAdditionalProperties(schema, node, s);
    // Objects with properties rarely have other members; open ones are mostly numbers.
    const guard =
      names.length > 0
        ? `not ${known}.issuperset(${s.value})`
        : this.numbersWithinTest(schema, `${s.value}.values()`, s);
    const indent = guard ? `${s.indent}    ` : s.indent;
    const key = this.fresh('k');
    const value = this.fresh('x');
    const inner = `${indent}    `;
    // The object's own pointer, named: an f-string may not hold it as an expression with quotes.
    const base = pointerExpr(s.pointer);
    const isName = /^\w+$/.test(base);
    const parent = isName ? base : this.fresh('q');
    const pointer = `${this.parts.use('member_pointer')}(${parent}, ${key})`;
    const member: Scope = {
      ...s,
      value,
      pointer: [{ text: pointer, isVar: true }],
      indent: inner,
      at: `${s.at}/additionalProperties`,
    };
    const target = this.inlineTarget(schema);
    const body = target
      ? this.withInlined(target.name, () => this.node(target.schema, member))
      : this.call(this.hoist(schema, member.at), member);
    const named = !isName && usesName(body, parent);
    return [
      ...(guard ? [layoutPy(guard, s.indent.length, 'if ', ':')] : []),
      ...(named ? [`${indent}${parent} = ${base}`] : []),
      `${indent}for ${key} in ${this.parts.use('unknown_members')}(${s.value}, ${known}):`,
      `${inner}${value} = ${s.value}[${key}]`,
      ...body,
    ];
  }

  /**
   * An `allOf` part in a fast check: a definition (a union variant's base) is compiled in place,
   * knowing which members of `node` (the variant's tag) are open content already checked.
   */
  private fastAllOfPart(part: unknown, node: SchemaNode, s: Scope): string[] {
    const target = this.inlineTarget(part);
    if (!target) return this.node(part, s);
    const properties = (node['properties'] ?? {}) as Record<string, unknown>;
    const outer = this.checkedElsewhere;
    this.checkedElsewhere = { value: s.value, properties };
    try {
      return this.withInlined(target.name, () => this.node(target.schema, s));
    } finally {
      this.checkedElsewhere = outer;
    }
  }

  /**
   * The names of the members of `node` (checked as `s.value`) that other schemas check as open
   * content satisfying `schema`: those of its `allOf` parts, and of the variant it is the base of.
   */
  private openMembersCheckedElsewhere(schema: unknown, node: SchemaNode, s: Scope): string[] {
    this.openContent ??= new OpenContentImplication(this.definitions);
    const implication = this.openContent;
    const sources: Record<string, unknown>[] = [];
    if (this.checkedElsewhere?.value === s.value) sources.push(this.checkedElsewhere.properties);
    for (const part of (node['allOf'] ?? []) as unknown[]) {
      const ref = isPlainObject(part) ? part['$ref'] : undefined;
      const resolved =
        typeof ref === 'string' ? this.definitions[ref.slice(REF_PREFIX.length)] : part;
      if (isPlainObject(resolved) && isPlainObject(resolved['properties']))
        sources.push(resolved['properties']);
    }
    return sources.flatMap((properties) =>
      Object.entries(properties)
        .filter(([, sub]) => implication.implies(sub, schema))
        .map(([name]) => name),
    );
  }

  /** Members `properties` does not name, in a fast check: in any order, without their names. */
  private fastAdditionalProperties(schema: unknown, node: SchemaNode, s: Scope): string[] {
    const own = Object.keys((node['properties'] ?? {}) as Record<string, unknown>);
    const names = [...new Set([...own, ...this.openMembersCheckedElsewhere(schema, node, s)])];
    const known = this.parts.keySet(names);
    const key = names.length > 0 ? this.fresh('k') : '';
    const value = this.fresh('x');
    const indent = names.length > 0 ? `${s.indent}    ` : s.indent;
    const member: Scope = {
      ...s,
      value,
      indent: `${indent}    `,
      at: `${s.at}/additionalProperties`,
    };
    const target = this.inlineTarget(schema);
    const body = target
      ? this.withInlined(target.name, () => this.node(target.schema, member))
      : this.node(schema, member);
    if (body.length === 0) return [];
    if (names.length === 0) return [`${s.indent}for ${value} in ${s.value}.values():`, ...body];
    return [
      `${s.indent}if not ${known}.issuperset(${s.value}):`,
      `${indent}for ${key} in ${s.value}.keys() - ${known}:`,
      `${indent}    ${value} = ${s.value}[${key}]`,
      ...body,
    ];
  }

  /** The definition a `{ $ref }` schema names, unless it is already being compiled in place. */
  protected inlineTarget(schema: unknown): { name: string; schema: unknown } | undefined {
    if (!isPlainObject(schema) || Object.keys(schema).length !== 1) return undefined;
    const ref = schema['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return undefined;
    const name = ref.slice(REF_PREFIX.length);
    if (this.inlined.has(name) || !(name in this.definitions)) return undefined;
    return { name, schema: this.definitions[name] };
  }

  protected withInlined<T>(name: string, compile: () => T): T {
    this.inlined.add(name);
    try {
      return compile();
    } finally {
      this.inlined.delete(name);
    }
  }

  protected items(items: unknown, s: Scope): string[] {
    const guard = this.numbersWithinTest(items, s.value, s);
    const indent = guard ? `${s.indent}    ` : s.indent;
    const index = this.fresh('i');
    const value = this.fresh('x');
    const scope = {
      ...s,
      value,
      slot: { container: s.value, key: index, isItem: true },
      pointer: itemOf(s.pointer, index),
      indent: `${indent}    `,
      at: `${s.at}/items`,
    };
    const inner = this.node(items, scope);
    if (inner.length === 0) return [];
    // A predicate reports no pointer: the index is only needed by a repair.
    const loop = usesName(inner, index)
      ? `for ${index}, ${value} in enumerate(${s.value}):`
      : `for ${value} in ${s.value}:`;
    return [
      ...(guard ? [layoutPy(guard, s.indent.length, 'if ', ':')] : []),
      `${indent}${loop}`,
      ...inner,
    ];
  }

  /**
   * A test, in C, that `values` are all numbers within the bounds of `schema` when `schema` says
   * nothing else about a number, so that no value can break it and the loop over them is skipped
   * (open content is mostly such numbers: token counts, arrays of floats); undefined otherwise.
   */
  protected numbersWithinTest(schema: unknown, values: string, s: Scope): PyExpr | undefined {
    const bounds = this.numberBounds(schema);
    if (!bounds || s.mode !== 'collect') return undefined;
    const range = this.parts.range(bounds.minimum, bounds.maximum);
    return {
      head: `not ${this.parts.use('all_numbers_within')}(`,
      items: [values, range],
      close: ')',
    };
  }

  /**
   * The bounds of a schema (or of the definition it names) whose only rules are number bounds and
   * subschemas of arrays and objects; undefined for any other schema.
   */
  protected numberBounds(schema: unknown): { minimum: string; maximum: string } | undefined {
    const ref = isPlainObject(schema) ? schema['$ref'] : undefined;
    const resolved =
      typeof ref === 'string' && Object.keys(schema as SchemaNode).length === 1
        ? this.definitions[ref.slice(REF_PREFIX.length)]
        : schema;
    if (!isPlainObject(resolved)) return undefined;
    const allowed = new Set(['minimum', 'maximum', 'items', 'additionalProperties']);
    if (!Object.keys(resolved).every((key) => allowed.has(key) || IGNORED.has(key)))
      return undefined;
    if (!('minimum' in resolved) || !('maximum' in resolved)) return undefined;
    return { minimum: num(resolved['minimum']), maximum: num(resolved['maximum']) };
  }
}

/** Whether generated `lines` use the local variable `name`. */
function usesName(lines: readonly string[], name: string): boolean {
  const word = new RegExp(`\\b${name}\\b`);
  return lines.some((line) => word.test(line));
}

/** Keywords that only test the value itself (no subschema): a definition made of them is inlined. */
const LEAF_KEYWORDS = new Set(
  'type const enum minLength pattern contentEncoding minimum maximum'.split(' '),
);

function isScalarLeaf(schema: unknown): boolean {
  return (
    isPlainObject(schema) &&
    Object.keys(schema).every((k) => LEAF_KEYWORDS.has(k) || IGNORED.has(k))
  );
}
