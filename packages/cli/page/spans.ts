// Spans as the model keeps them: opened by one frame, closed by another, cut short when the
// runtime exits first ("unfinished"), stacked in sub-rows where they overlap, and the newest
// activity (what the timeline's follow mode keeps in view).

export type SpanKind = 'turn' | 'step' | 'tool' | 'subagent' | 'request';
/** `unfinished`: still open when the runtime exited, so it never will end. */
export type SpanStatus = 'open' | 'ok' | 'error' | 'other' | 'unfinished';

/** Something with a beginning and (once seen) an end on a lane: a turn, a step, a tool call… */
export interface Span {
  readonly kind: SpanKind;
  readonly label: string;
  readonly start: number;
  readonly startRow: number;
  end: number | undefined;
  endRow: number | undefined;
  status: SpanStatus;
  /** The sub-row it is drawn in, 0 first (overlapping requests stack; other kinds keep 0). */
  subRow: number;
}

/** The kinds that make up a lane's activity: a turn, a subagent's run, a request. */
const ACTIVITY: ReadonlySet<SpanKind> = new Set(['turn', 'subagent', 'request']);

/** The spans still open, by the key their closing frame will name. */
export class OpenSpans {
  readonly #open = new Map<string, Span>();
  #latestStart: number | undefined;

  open(key: string, kind: SpanKind, label: string, t: number, row: number): Span {
    const span: Span = {
      kind,
      label,
      start: t,
      startRow: row,
      end: undefined,
      endRow: undefined,
      status: 'open',
      subRow: 0,
    };
    this.#open.set(key, span);
    if (ACTIVITY.has(kind)) this.noteActivity(t);
    return span;
  }

  close(key: string, t: number, row: number, status: SpanStatus): void {
    const span = this.#open.get(key);
    if (!span) return;
    this.#open.delete(key);
    span.end = t;
    span.endRow = row;
    span.status = status;
  }

  /** The runtime is gone: whatever is open ends here, unfinished. */
  cutShort(t: number, row: number): void {
    for (const key of [...this.#open.keys()]) this.close(key, t, row, 'unfinished');
  }

  /** Something began at `t` (a span of activity, or a prompt sent). */
  noteActivity(t: number): void {
    this.#latestStart = Math.max(this.#latestStart ?? t, t);
  }

  /**
   * Where the newest activity begins: the earliest start among the turns, subagents and requests
   * still open, or else the start of the last one that began. Undefined while nothing began.
   */
  activityStart(): number | undefined {
    let start = this.#latestStart;
    for (const span of this.#open.values()) {
      if (ACTIVITY.has(span.kind)) start = Math.min(start ?? span.start, span.start);
    }
    return start;
  }
}

/**
 * Stacks spans that overlap in time: each new span takes the first sub-row whose last span ended
 * by its start (an open one holds its row). Spans come in order of their start, so a span's row
 * never changes once given.
 */
export class SubRows {
  readonly #last: Span[] = [];

  get count(): number {
    return Math.max(1, this.#last.length);
  }

  place(span: Span): void {
    let row = this.#last.findIndex((s) => s.end !== undefined && s.end <= span.start);
    if (row === -1) row = this.#last.length;
    this.#last[row] = span;
    span.subRow = row;
  }
}
