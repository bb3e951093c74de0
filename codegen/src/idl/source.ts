// The IDL as text and as a tree, so every problem can be pointed at by JSON pointer and line:column.
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';

/** A parsed IDL file that can locate any JSON pointer in its text. */
export interface IdlSource {
  readonly path: string;
  readonly text: string;
  readonly value: unknown;
  /** 1-based line and column of the value at `pointer` (or of its nearest existing ancestor). */
  locate(pointer: string): { line: number; column: number };
}

/** A problem found in the IDL: where it is and how to fix it. */
export interface IdlProblem {
  pointer: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}

/** Thrown when the IDL cannot be used; carries every problem found. */
export class IdlError extends Error {
  override readonly name = 'IdlError';
  constructor(
    readonly file: string,
    readonly problems: readonly IdlProblem[],
  ) {
    super(problems.map((p) => formatProblem(file, p)).join('\n'));
  }
}

/** `protocol.idl.json:12:5 /methods/1/params: message\n  fix: hint` */
export function formatProblem(file: string, p: IdlProblem): string {
  return `${file}:${p.line}:${p.column} ${p.pointer || '/'}: ${p.message}\n  fix: ${p.hint}`;
}

export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export function pathToPointer(path: readonly (string | number)[]): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function parseIdlSource(path: string, text: string): IdlSource {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const lineStarts = computeLineStarts(text);
  const position = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
  };
  const firstError = errors[0];
  if (firstError || !tree) {
    const at = position(firstError?.offset ?? 0);
    throw new IdlError(path, [
      {
        pointer: '',
        ...at,
        message: 'not valid JSON',
        hint: 'fix the JSON syntax at this position',
      },
    ]);
  }
  const locate = (pointer: string) => {
    const segments = pointerToPath(pointer);
    for (let n = segments.length; n >= 0; n--) {
      const node: Node | undefined = findNodeAtLocation(tree, segments.slice(0, n));
      if (node)
        return position(node.parent?.type === 'property' ? node.parent.offset : node.offset);
    }
    return { line: 1, column: 1 };
  };
  return { path, text, value: JSON.parse(text) as unknown, locate };
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}
