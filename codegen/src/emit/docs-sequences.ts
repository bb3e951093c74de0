// The IDL's `sequences` → mermaid sequence diagrams. Every method, event type, member and value
// printed here comes from the step data the checker tied to the IDL; this file adds only arrows.
import type { Model, Sequence, SequenceStep } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Sides } from '../protocols/targets.js';

const PARTICIPANTS = { client: 'C', runtime: 'R', both: 'C,R' } as const;

/** `participants`: how the diagrams label the two ends (the docs target's `participants`). */
export function emitSequences(f: GeneratedFile, model: Model, participants: Sides): void {
  for (const sequence of model.sequences) emitSequence(f, sequence, participants);
}

function emitSequence(f: GeneratedFile, sequence: Sequence, participants: Sides): void {
  f.print`## ${sequence.title}`;
  f.blank();
  if (sequence.since > 1) {
    f.raw(`Protocol version ${sequence.since} and later.`);
    f.blank();
  }
  f.raw(sequence.description);
  f.blank();
  f.print`\`\`\`mermaid`;
  f.print`sequenceDiagram`;
  f.print`  participant C as ${participants.client}`;
  f.print`  participant R as ${participants.server}`;
  for (const line of stepLines(sequence.steps, '  ')) f.raw(line);
  f.print`\`\`\``;
  f.blank();
}

function stepLines(steps: readonly SequenceStep[], indent: string): string[] {
  return steps.flatMap((step) => stepLine(step, indent));
}

function stepLine(step: SequenceStep, indent: string): string[] {
  switch (step.kind) {
    case 'note':
      return [`${indent}Note over ${PARTICIPANTS[step.over]}: ${text(step.text)}`];
    case 'opt':
      return [
        `${indent}opt ${text(step.label)}`,
        ...stepLines(step.steps, `${indent}  `),
        `${indent}end`,
      ];
    case 'alt':
      return step.branches.flatMap((branch, i) => [
        `${indent}${i === 0 ? 'alt' : 'else'} ${text(branch.label)}`,
        ...stepLines(branch.steps, `${indent}  `),
        ...(i === step.branches.length - 1 ? [`${indent}end`] : []),
      ]);
    case 'request':
      return [`${indent}C->>R: ${step.method}${payload(step)}${note(step.note)}`];
    case 'result':
      return [`${indent}R-->>C: result${payload(step) || ' {}'}${note(step.note)}`];
    case 'error':
      return [`${indent}R-->>C: error ${step.code}${note(step.note)}`];
    case 'notification': {
      const events = step.events.length > 0 ? ` ${step.events.join(', ')}` : '';
      return [`${indent}R--)C: ${step.method}${events}${payload(step)}${note(step.note)}`];
    }
  }
}

/** `{a, b: 1}`: the members, then the values, in the step's order. */
function payload(step: Extract<SequenceStep, { members: readonly string[] }>): string {
  const valued = new Map(step.values);
  const shown = step.members.map((m) => (valued.has(m) ? `${m}: ${String(valued.get(m))}` : m));
  for (const [path, value] of step.values)
    if (!step.members.includes(path)) shown.push(`${path}: ${String(value)}`);
  return shown.length > 0 ? ` {${shown.join(', ')}}` : '';
}

const note = (words: string | null) => (words ? ` (${text(words)})` : '');

/** Mermaid reads `;` and `#` inside a message; neither appears in the data, but never let them through. */
const text = (words: string) => words.replace(/[;#]/g, ',');
