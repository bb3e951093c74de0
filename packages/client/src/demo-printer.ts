// Output helpers of the demo: labelled lines, streamed text, and small aligned tables.
/// <reference types="node" preserve="true" />
import type { Writable } from 'node:stream';

const LABEL_WIDTH = 11;

/**
 * Writes labelled lines (`  label   text`) and streamed text that grows on one line. A line
 * being streamed is ended before anything else is printed.
 */
export class DemoPrinter {
  readonly #out: Writable;
  #streaming: string | undefined;

  constructor(out: Writable) {
    this.#out = out;
  }

  /** A line: `label` padded to a column, then `text`. */
  line(label: string, text = ''): void {
    this.#endStream();
    this.#out.write(`${this.#prefix(label)}${text}`.trimEnd() + '\n');
  }

  /** A blank line, or a heading. */
  heading(text = ''): void {
    this.#endStream();
    this.#out.write(text === '' ? '\n' : `\n${text}\n`);
  }

  /** Appends `text` to the streamed line labelled `label` (starting it if needed). */
  stream(label: string, text: string): void {
    if (this.#streaming !== label) {
      this.#endStream();
      this.#out.write(this.#prefix(label));
      this.#streaming = label;
    }
    // Reply text may hold newlines: continue them under the text column.
    this.#out.write(text.replace(/\n/g, `\n${' '.repeat(this.#prefix(label).length)}`));
  }

  /** Rows of cells, each column padded to its widest cell; numbers are right-aligned. */
  table(rows: readonly (readonly (string | number)[])[], indent = 2): void {
    this.#endStream();
    const widths: number[] = [];
    for (const row of rows) {
      row.forEach((cell, column) => {
        widths[column] = Math.max(widths[column] ?? 0, String(cell).length);
      });
    }
    for (const row of rows) {
      const cells = row.map((cell, column) => {
        const width = widths[column] ?? 0;
        return typeof cell === 'number' ? String(cell).padStart(width) : cell.padEnd(width);
      });
      this.#out.write(`${' '.repeat(indent)}${cells.join('   ')}`.trimEnd() + '\n');
    }
  }

  #prefix(label: string): string {
    return `  ${label.padEnd(LABEL_WIDTH - 1)} `;
  }

  #endStream(): void {
    if (this.#streaming === undefined) return;
    this.#streaming = undefined;
    this.#out.write('\n');
  }
}

/** `123 ms`, or `—` when there is no value. */
export function formatMs(ms: number | undefined): string {
  return ms === undefined ? '—' : `${Math.round(ms)} ms`;
}

/** Shortens `text` to `max` characters with an ellipsis. */
export function shorten(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
