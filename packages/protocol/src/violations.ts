// ajv errors → the `-32602` wire form: one `{ pointer, message }` per violation.
import type { ValidationError } from './gen/validators.gen.js';
import type { Violation } from './gen/types.gen.js';

/**
 * Turns a validator's errors into violations with JSON pointers into the checked value.
 * `if` errors only summarize a failed dispatch branch and are dropped; a missing property is
 * reported at the pointer it would have (also when the value is not an object, for a type marked
 * `x-not-object-lacks-required`); a property that must be absent, at its own pointer.
 */
export function toViolations(errors: readonly ValidationError[] | null | undefined): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    if (error.keyword === 'if') continue;
    const violation = toViolation(error);
    const key = `${violation.pointer}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(violation);
  }
  return violations;
}

function toViolation(error: ValidationError): Violation {
  // `required`, and `x-not-object-lacks-required` for a value that is not an object at all.
  if (error.keyword === 'required' || typeof error.params['missingProperty'] === 'string') {
    const missing = String(error.params['missingProperty']);
    return {
      pointer: `${error.instancePath}/${escapePointerSegment(missing)}`,
      message: error.message ?? 'is required',
    };
  }
  if (error.keyword === 'false schema') {
    return { pointer: error.instancePath, message: 'must not be present' };
  }
  return { pointer: error.instancePath, message: error.message ?? error.keyword };
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
