// Sequence diagrams are data: every method, event type, member and value a step names must be one
// the IDL defines, go the way its method goes, and be no newer than the diagram's `since`.
import type { Finding } from './check.js';
import type { Field, Method, Model, Sequence, SequenceStep, TypeDef } from './model.js';
import { knownEventTags, stepTarget } from './sequence-targets.js';

export function checkSequences(model: Model, findings: Finding[]): void {
  const names = new Map<string, number>();
  model.sequences.forEach((sequence, i) => {
    const at = `/sequences/${i}`;
    const first = names.get(sequence.name);
    if (first !== undefined)
      findings.push({
        pointer: `${at}/name`,
        message: `sequence name "${sequence.name}" is already used by /sequences/${first}`,
        hint: 'give every sequence a unique `name`',
      });
    else names.set(sequence.name, i);
    if (sequence.since > model.meta.protocolVersion)
      findings.push({
        pointer: `${at}/since`,
        message: `since ${sequence.since} is above meta.protocolVersion (${model.meta.protocolVersion})`,
        hint: `raise /meta/protocolVersion to ${sequence.since}, or lower the sequence's since`,
      });
    const context = new StepChecker(model, sequence, findings);
    context.checkSteps(sequence.steps, `${at}/steps`);
  });
}

class StepChecker {
  readonly #tags: ReadonlySet<string>;

  constructor(
    private readonly model: Model,
    private readonly sequence: Sequence,
    private readonly findings: Finding[],
  ) {
    this.#tags = new Set(knownEventTags(model));
  }

  checkSteps(steps: readonly SequenceStep[], at: string): void {
    steps.forEach((step, j) => this.#checkStep(step, `${at}/${j}`));
  }

  #checkStep(step: SequenceStep, at: string): void {
    switch (step.kind) {
      case 'note':
        return this.#checkWords(step.text, `${at}/note`);
      case 'opt':
        this.#checkWords(step.label, `${at}/opt`);
        return this.checkSteps(step.steps, `${at}/steps`);
      case 'alt':
        return step.branches.forEach((branch, k) => {
          this.#checkWords(branch.label, `${at}/alt/${k}/label`);
          this.checkSteps(branch.steps, `${at}/alt/${k}/steps`);
        });
      default: {
        const method = this.#checkMethod(step, at);
        if (step.note !== null) this.#checkWords(step.note, `${at}/note`);
        if (!method) return;
        if (step.kind === 'error') this.#checkErrorCode(step.code, `${at}/code`);
        if (step.kind === 'notification') this.#checkEvents(step.events, method, at);
        this.#checkFacts(step, method, at);
      }
    }
  }

  #checkMethod(step: Extract<SequenceStep, { method: string }>, at: string): Method | undefined {
    const pointer = `${at}/${step.kind}`;
    const method = this.model.methods.find((m) => m.wireName === step.method);
    if (!method) {
      this.#fail(pointer, `unknown method "${step.method}"`, 'name a method by its wire name');
      return undefined;
    }
    const wanted = step.kind === 'notification' ? 'notification' : 'request';
    if (method.kind !== wanted)
      this.#fail(
        pointer,
        `"${step.method}" is a ${method.kind}, not a ${wanted}`,
        `use a ${method.kind === 'request' ? '"request"/"result"/"error"' : '"notification"'} step`,
      );
    this.#requireSince(method.since, pointer, `method "${method.wireName}"`);
    return method;
  }

  #checkErrorCode(code: string, at: string): void {
    if (!this.model.errors.some((e) => e.name === code))
      this.#fail(
        at,
        `unknown error "${code}"`,
        `use one of: ${this.model.errors.map((e) => e.name).join(', ')}`,
      );
  }

  #checkEvents(events: readonly string[], method: Method, at: string): void {
    events.forEach((event, k) => {
      const pointer = events.length === 1 ? `${at}/event` : `${at}/events/${k}`;
      const target = stepTarget(this.model, method, 'notification', [event]);
      if (target.eventVariant === null)
        this.#fail(
          pointer,
          `"${event}" is not an event type of ${method.wireName}`,
          `use one of: ${[...this.#tags].join(', ')}`,
        );
    });
  }

  #checkFacts(
    step: Extract<SequenceStep, { members: readonly string[] }>,
    method: Method,
    at: string,
  ) {
    const events = step.kind === 'notification' ? step.events : [];
    const { type } = stepTarget(this.model, method, step.kind, events);
    if (step.members.length === 0 && step.values.length === 0) return;
    if (!type) {
      this.#fail(
        at,
        `this ${step.kind} of ${method.wireName} carries no object to name members of`,
        'remove "members" and "values"',
      );
      return;
    }
    step.members.forEach((member, k) => {
      const field = type.fields.find((f) => f.name === member);
      const pointer = `${at}/members/${k}`;
      if (!field)
        this.#fail(
          pointer,
          `${type.name} has no member "${member}"`,
          `use one of: ${type.fields.map((f) => f.name).join(', ')}`,
        );
      else this.#requireSince(field.since, pointer, `member ${type.name}.${member}`);
    });
    for (const [path, value] of step.values)
      this.#checkValue(
        type,
        path,
        value,
        `${at}/values/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      );
  }

  #checkValue(root: TypeDef, path: string, value: unknown, at: string): void {
    let type: TypeDef | undefined = root;
    let field: Field | undefined;
    for (const segment of path.split('.')) {
      if (!type || type.kind !== 'object')
        return this.#fail(
          at,
          `"${path}" goes through something that is not an object`,
          'shorten the path',
        );
      field = type.fields.find((f) => f.name === segment);
      if (!field)
        return this.#fail(
          at,
          `${type.name} has no member "${segment}"`,
          `use one of: ${type.fields.map((f) => f.name).join(', ')}`,
        );
      this.#requireSince(field.since, at, `member ${type.name}.${segment}`);
      type = field.typeRef ? this.model.types.find((t) => t.name === field?.typeRef) : undefined;
    }
    const problem = this.#valueProblem(field, type, value, at);
    if (problem)
      this.#fail(
        at,
        `${JSON.stringify(value)} is not a value of "${path}": ${problem}`,
        'use a value the member accepts',
      );
  }

  /** Why `value` does not fit the leaf, or null when it does. */
  #valueProblem(
    field: Field | undefined,
    type: TypeDef | undefined,
    value: unknown,
    at: string,
  ): string | null {
    if (field?.isArray) return 'the member is an array';
    if (type && (type.kind === 'enum' || type.kind === 'openEnum')) {
      const known = type.values.find((v) => v.value === value);
      if (!known) return `known values are ${type.values.map((v) => v.value).join(', ')}`;
      this.#requireSince(known.since, at, `value "${known.value}" of ${type.name}`);
      return null;
    }
    const schema = type ? type.schema : field?.schema;
    if (type && type.kind === 'object') return `${type.name} is an object`;
    if (schema?.['const'] !== undefined)
      return schema['const'] === value ? null : `it is always ${JSON.stringify(schema['const'])}`;
    const jsonType = schema?.['type'];
    if (jsonType === 'boolean') return typeof value === 'boolean' ? null : 'it is a boolean';
    if (jsonType === 'string') return typeof value === 'string' ? null : 'it is a string';
    if (jsonType === 'integer') return Number.isInteger(value) ? null : 'it is an integer';
    if (jsonType === 'number') return typeof value === 'number' ? null : 'it is a number';
    return null;
  }

  /** Words must not spell a method or an event type: those belong in the step's own members. */
  #checkWords(text: string, at: string): void {
    const named = [
      ...this.model.methods.map((m) => m.wireName).filter((w) => /[/.]/.test(w)),
      ...this.#tags,
    ].find((word) => text.includes(word));
    if (named)
      this.#fail(
        at,
        `the text names "${named}"`,
        'show methods and event types as steps (request, result, notification, event), not in words',
      );
  }

  #requireSince(since: number, at: string, what: string): void {
    if (since > this.sequence.since)
      this.#fail(
        at,
        `${what} is new in version ${since}, but the sequence shows version ${this.sequence.since}`,
        `set the sequence's "since" to ${since}`,
      );
  }

  #fail(pointer: string, message: string, hint: string): void {
    this.findings.push({ pointer, message, hint });
  }
}
