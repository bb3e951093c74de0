// A generated Python file. Like GeneratedFile, but blank lines are kept as printed: PEP 8 (and
// `ruff format`) put two blank lines between top-level definitions, which GeneratedFile collapses.
import type { OutputFile } from '../printer/generated-file.js';
import { commentedHeader } from '../printer/generated-file.js';

type Printable = string | number | readonly string[];

export class PyFile {
  private readonly lines: string[] = [];

  constructor(
    readonly path: string,
    readonly emitter: string,
  ) {}

  /** Prints one tagged-template line; array values print one item per line. */
  print(strings: TemplateStringsArray, ...values: Printable[]): void {
    let text = strings[0] ?? '';
    values.forEach((value, i) => {
      text += (Array.isArray(value) ? value.join('\n') : String(value)) + (strings[i + 1] ?? '');
    });
    this.lines.push(text);
  }

  /** Adds text verbatim. */
  raw(text: string): void {
    this.lines.push(text);
  }

  /** Adds `count` blank lines (two separate top-level definitions). */
  blank(count = 1): void {
    for (let i = 0; i < count; i++) this.lines.push('');
  }

  finish(): OutputFile {
    const body = this.lines.join('\n').trim();
    return {
      path: this.path,
      language: 'py',
      content: `${commentedHeader(this.emitter, 'py')}\n${body}\n`,
    };
  }
}
