// What the Python validators' fast path needs to know about a schema: whether checking it can
// repair the value (schema/lenient.ts). A fast check is a boolean per definition that builds no
// pointers and repairs nothing: it answers "valid, nothing to repair" for the common value, and
// the full check runs when it says no. Where a schema repairs, the fast check cannot tell a
// failed `if` (or `anyOf` branch, or `not`) from one the full check would repair, so it answers
// no there and leaves the verdict to the full check: it is exact on repair-free schemas only.
import { REF_PREFIX } from '../idl/model.js';
import { GROUPS, IGNORED, isPlainObject } from './py-validator-module.js';

const REPAIRS = ['x-lenient-drop', 'x-lenient-default', 'x-lenient-compact'];

/** Whether checking a schema (through its `$ref`s too) never repairs the value. */
export class RepairAnalysis {
  /** The definitions whose check can repair, found by a fixed point over their references. */
  private readonly repairing = new Set<string>();

  constructor(definitions: Record<string, unknown>) {
    const direct = Object.entries(definitions).map(
      ([name, schema]) => [name, scan(schema)] as const,
    );
    for (const [name, found] of direct) if (found.repairs) this.repairing.add(name);
    let grown = true;
    while (grown) {
      grown = false;
      for (const [name, found] of direct) {
        if (this.repairing.has(name) || !found.refs.some((ref) => this.repairing.has(ref)))
          continue;
        this.repairing.add(name);
        grown = true;
      }
    }
  }

  repairFree(schema: unknown): boolean {
    const found = scan(schema);
    return !found.repairs && !found.refs.some((ref) => this.repairing.has(ref));
  }
}

/** Whether `schema` itself repairs, and the definitions it names, not following them. */
function scan(schema: unknown): { repairs: boolean; refs: string[] } {
  const found = { repairs: false, refs: [] as string[] };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isPlainObject(node)) return;
    if (REPAIRS.some((key) => key in node)) found.repairs = true;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith(REF_PREFIX))
      found.refs.push(ref.slice(REF_PREFIX.length));
    for (const [key, sub] of Object.entries(node)) {
      // `properties` maps names (which may be `const`) to schemas; const and enum hold data.
      if (key === 'properties' && isPlainObject(sub)) Object.values(sub).forEach(visit);
      else if (key !== 'const' && key !== 'enum') visit(sub);
    }
  };
  visit(schema);
  return found;
}

/** Keywords that only apply to numbers, arrays and objects: a string passes a schema made of them. */
const NOT_FOR_STRINGS = new Set(
  GROUPS.filter((g) => g.type !== 'string').flatMap((g) => g.keywords),
);

/**
 * Whether every string passes `schema` (open content, `OpenValue`): a fast check then tests for a
 * string first, the commonest open value, and skips the call or the other type tests.
 */
export function passesEveryString(schema: unknown): boolean {
  return (
    isPlainObject(schema) &&
    Object.keys(schema).every((key) => NOT_FOR_STRINGS.has(key) || IGNORED.has(key))
  );
}

/** Open content: number bounds, and the same schema for every item and member (`OpenValue`). */
interface OpenContent {
  readonly name: string;
  readonly minimum: number;
  readonly maximum: number;
}

const ALL_TYPES = ['string', 'boolean', 'null', 'number', 'integer', 'array', 'object'];
const SCALARS = new Set(['string', 'boolean', 'null']);

/**
 * Whether every value a fast check accepts for a schema is also open content (`OpenValue`): then
 * a member that schema checks need not be checked again as an unknown member of another `allOf`
 * part (a union variant's base, which does not name the variant's tag, and the reverse). Decided
 * from the schema, coinductively through `$ref`s; "no" when unsure.
 */
export class OpenContentImplication {
  private readonly assumed = new Set<string>();
  private readonly refuted = new Set<string>();
  constructor(private readonly definitions: Record<string, unknown>) {}

  /** Whether passing `schema` implies passing `open` (a `$ref` to open content). */
  implies(schema: unknown, open: unknown): boolean {
    const target = this.openContent(open);
    return target !== undefined && this.holds(schema, target);
  }

  private openContent(open: unknown): OpenContent | undefined {
    const ref = isPlainObject(open) ? open['$ref'] : undefined;
    if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return undefined;
    const name = ref.slice(REF_PREFIX.length);
    const schema = this.definitions[name];
    if (!isPlainObject(schema)) return undefined;
    const { minimum, maximum } = schema;
    if (typeof minimum !== 'number' || typeof maximum !== 'number') return undefined;
    const self = (sub: unknown) => sub === undefined || (isPlainObject(sub) && sub['$ref'] === ref);
    const keys = Object.keys(schema).filter((k) => !IGNORED.has(k));
    const known = ['minimum', 'maximum', 'items', 'additionalProperties'];
    if (!keys.every((k) => known.includes(k))) return undefined;
    return self(schema['items']) && self(schema['additionalProperties'])
      ? { name, minimum, maximum }
      : undefined;
  }

  private holds(schema: unknown, open: OpenContent): boolean {
    if (schema === false) return true;
    if (!isPlainObject(schema)) return false;
    const ref = schema['$ref'];
    if (typeof ref === 'string' && this.refHolds(ref, open)) return true;
    if ('const' in schema && withinOpen(schema['const'], open)) return true;
    const values = schema['enum'];
    if (Array.isArray(values) && values.every((v) => withinOpen(v, open))) return true;
    const allOf = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
    if (allOf.some((part) => this.holds(part, open))) return true;
    const anyOf = schema['anyOf'];
    if (Array.isArray(anyOf) && anyOf.every((branch) => this.holds(branch, open))) return true;
    if ('if' in schema && this.ifHolds(schema, open)) return true;
    const raw = schema['type'];
    const types = raw === undefined ? ALL_TYPES : Array.isArray(raw) ? raw : [raw];
    return types.every((type) => this.typeHolds(String(type), schema, open));
  }

  private refHolds(ref: string, open: OpenContent): boolean {
    const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : '';
    if (name === open.name || this.assumed.has(name)) return true;
    if (this.refuted.has(name) || !(name in this.definitions)) return false;
    this.assumed.add(name);
    const holds = this.holds(this.definitions[name], open);
    this.assumed.delete(name);
    // A refutation made while assuming others is still one; a proof may rest on an assumption.
    if (!holds) this.refuted.add(name);
    return holds;
  }

  /**
   * A lenient member (`if`, else a repair: a fast check fails where it would repair) holds when
   * its `if` does; a chain holds when each `then` does and its last `else` does or never passes.
   */
  private ifHolds(schema: Record<string, unknown>, open: OpenContent): boolean {
    let link: unknown = schema;
    while (isPlainObject(link) && 'if' in link) {
      const { then, else: otherwise } = link;
      if (then === undefined) return isRepair(otherwise) && this.holds(link['if'], open);
      if (!this.holds(then, open)) return false;
      link = otherwise;
    }
    return link !== undefined && (this.holds(link, open) || unknownTagFails(schema, link));
  }

  private typeHolds(type: string, schema: Record<string, unknown>, open: OpenContent): boolean {
    if (SCALARS.has(type)) return true;
    if (type === 'number' || type === 'integer') {
      const { minimum, maximum } = schema;
      return (
        typeof minimum === 'number' &&
        typeof maximum === 'number' &&
        minimum >= open.minimum &&
        maximum <= open.maximum
      );
    }
    if (type === 'array') return 'items' in schema && this.holds(schema['items'], open);
    if (type !== 'object' || !('additionalProperties' in schema)) return false;
    const properties = isPlainObject(schema['properties']) ? schema['properties'] : {};
    return (
      this.holds(schema['additionalProperties'], open) &&
      Object.values(properties).every((sub) => this.holds(sub, open))
    );
  }
}

function isRepair(schema: unknown): boolean {
  return isPlainObject(schema) && Object.keys(schema).some((k) => REPAIRS.includes(k));
}

/** Whether every number in a JSON value is within the bounds of open content. */
function withinOpen(value: unknown, open: OpenContent): boolean {
  if (typeof value === 'number') return value >= open.minimum && value <= open.maximum;
  if (Array.isArray(value)) return value.every((item) => withinOpen(item, open));
  if (isPlainObject(value)) return Object.values(value).every((v) => withinOpen(v, open));
  return true;
}

/**
 * Whether the last `else` of a discriminated union's chain never passes: it only lists the tags
 * (`enum`), every one of which an `if` of the chain takes, and the union requires its tag to be a
 * string, so a value that reaches the `else` is either invalid already or has no listed tag.
 */
function unknownTagFails(union: Record<string, unknown>, otherwise: unknown): boolean {
  if (!isPlainObject(otherwise) || Object.keys(otherwise).join() !== 'properties') return false;
  const properties = otherwise['properties'];
  if (!isPlainObject(properties) || Object.keys(properties).length !== 1) return false;
  const [[tag, rule]] = Object.entries(properties) as [[string, unknown]];
  if (!isPlainObject(rule) || !Array.isArray(rule['enum'])) return false;
  const required = Array.isArray(union['required']) ? union['required'] : [];
  const own = isPlainObject(union['properties']) ? union['properties'][tag] : undefined;
  if (!required.includes(tag) || !isPlainObject(own) || own['type'] !== 'string') return false;
  const taken = new Set<unknown>();
  let link: unknown = union;
  while (isPlainObject(link) && 'if' in link) {
    const tested = tagOf(link['if'], tag);
    // An `if` that tests more than the tag may fail for a listed tag, which then reaches the else.
    if (tested === undefined) return false;
    taken.add(tested);
    link = link['else'];
  }
  return rule['enum'].every((value) => taken.has(value));
}

/** The tag an `if` of a discriminated union tests, when it tests nothing else. */
function tagOf(test: unknown, tag: string): unknown {
  if (
    !isPlainObject(test) ||
    !Object.keys(test).every((k) => k === 'properties' || k === 'required')
  )
    return undefined;
  const properties = test['properties'];
  if (!isPlainObject(properties) || Object.keys(properties).join() !== tag) return undefined;
  const rule = properties[tag];
  return isPlainObject(rule) && Object.keys(rule).join() === 'const' ? rule['const'] : undefined;
}
