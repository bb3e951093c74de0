// The trace as the page shows it: rows (one per frame), lanes with their spans, filters'
// vocabularies. Records are added one at a time, so a live trace grows the same model.
//
// A lane is one life of a session: a `session/prompt` sent after the session's `session/close`
// starts a new session under the same id (docs/protocol.md: its turns and `seq` start again), so
// it gets a lane of its own, and so do the child sessions its turns start. Lanes are keyed by a key unique
// in the trace: the session id for its first life, the id with `#2`, `#3`… for later ones.
import type {
  TraceExit,
  TraceFinding,
  TraceFrame,
  TraceHeader,
  TraceRecord,
} from '@dsh-sdk/protocol';
import { CONNECTION_LANE, describeExit } from './lanes.js';
import type { Lane, Mark, MarkKind, Row } from './lanes.js';
import { OpenSpans, SubRows } from './spans.js';
import type { Span, SpanKind, SpanStatus } from './spans.js';
import { deriveEvent } from './events.js';
import type { SpanBook } from './events.js';
import { isObject, str, summarize } from './summaries.js';
import type { Json } from './summaries.js';
import { Method, RunStatus } from './vocabulary.js';

export type { Span, SpanKind, SpanStatus } from './spans.js';
export { CONNECTION_LANE, describeExit, laneName } from './lanes.js';
export type { Lane, Mark, MarkKind, Row, TurnText } from './lanes.js';
export { blocksText } from './summaries.js';

/** The client's requests drawn as marks on their session's lane. */
const MARKED_REQUESTS: Readonly<Record<string, MarkKind>> = {
  [Method.sessionPrompt]: 'prompt',
  [Method.sessionInterrupt]: 'interrupt',
  [Method.sessionClose]: 'close',
};

export class TraceModel {
  header: TraceHeader | undefined;
  exit: TraceExit | undefined;
  readonly rows: Row[] = [];
  /** Every lane, by key. */
  readonly lanes = new Map<string, Lane>();
  readonly methods = new Set<string>();
  readonly eventTypes = new Set<string>();
  /** Lines of the trace that were not records (a damaged file). */
  unreadable = 0;
  /** The count of rows with findings, and of findings. */
  invalidRows = 0;
  findings = 0;
  /** Time of the last record, in ms since the header's `startedAt`. */
  lastT = 0;
  /** Bumped on every change, so views know to redraw. */
  version = 0;
  /** Bumped when a lane appears or a session is closed (menus of sessions). */
  sessionsVersion = 0;
  readonly #bySeq = new Map<number, number>();
  readonly #spans = new OpenSpans();
  /** The current life of each session id. */
  readonly #current = new Map<string, Lane>();
  /** How the events open and close spans (events.ts). */
  readonly #book: SpanBook = {
    open: (key, kind, label, row) => this.#open(key, kind, label, row),
    close: (key, row, status) => this.#close(key, row, status),
  };

  /** Adds one record (the first must be the header). */
  add(record: TraceRecord, raw: string): void {
    this.version += 1;
    if ('t' in record && typeof record.t === 'number') this.lastT = Math.max(this.lastT, record.t);
    switch (record.type) {
      case 'header':
        this.header = record;
        return;
      case 'frame':
        this.#addFrame(record, raw);
        return;
      case 'finding': {
        const index = this.#bySeq.get(record.frame);
        if (index === undefined) return;
        this.#addFindings(this.rows[index]!, [record.finding]);
        return;
      }
      case 'exit':
        this.#addExit(record);
        return;
      default:
        return;
    }
  }

  /** The current life of a session id, if it was seen. */
  currentLane(sessionId: string): Lane | undefined {
    return this.#current.get(sessionId);
  }

  /** Where the newest activity begins (see {@link OpenSpans.activityStart}). */
  activityStart(): number | undefined {
    return this.#spans.activityStart();
  }

  /** Lanes in display order: roots by first appearance, each followed by its children, nested. */
  orderedLanes(): { lane: Lane; depth: number }[] {
    const out: { lane: Lane; depth: number }[] = [];
    const visit = (lane: Lane, depth: number): void => {
      out.push({ lane, depth });
      for (const child of lane.children) {
        const childLane = this.lanes.get(child);
        if (childLane) visit(childLane, depth + 1);
      }
    };
    const roots = [...this.lanes.values()].filter(
      (l) => l.parent === undefined || !this.lanes.has(l.parent),
    );
    roots.sort((a, b) => a.firstRow - b.firstRow);
    for (const root of roots) visit(root, 0);
    return out;
  }

  /** The lane's key and every descendant's. */
  subtree(key: string): Set<string> {
    const keys = new Set<string>();
    const visit = (k: string): void => {
      if (keys.has(k)) return;
      keys.add(k);
      for (const child of this.lanes.get(k)?.children ?? []) visit(child);
    };
    visit(key);
    return keys;
  }

  /** The current life of `sessionId`, its first one made if there is none yet. */
  #laneOf(sessionId: string, row: number): Lane {
    return this.#current.get(sessionId) ?? this.#newLife(sessionId, row);
  }

  #newLife(sessionId: string, row: number): Lane {
    const life = (this.#current.get(sessionId)?.life ?? 0) + 1;
    let key = life === 1 ? sessionId : `${sessionId}#${life}`;
    // A session id may itself look like a later life's key: keys stay unique whatever ids come.
    while (this.lanes.has(key)) key += `#${life}`;
    const lane: Lane = {
      key,
      sessionId,
      life,
      parent: undefined,
      children: [],
      spans: [],
      invalidRows: [],
      turns: new Map(),
      marks: [],
      closing: false,
      closed: false,
      firstRow: row,
      rows: 0,
      subRows: new SubRows(),
    };
    this.lanes.set(key, lane);
    this.#current.set(sessionId, lane);
    this.sessionsVersion += 1;
    return lane;
  }

  #addExit(exit: TraceExit): void {
    this.exit = exit;
    const last = this.rows.length - 1;
    this.#spans.cutShort(exit.t, Math.max(last, 0));
    this.#laneOf(CONNECTION_LANE, Math.max(last, 0)).marks.push({
      kind: 'exit',
      t: exit.t,
      row: last >= 0 ? last : undefined,
      label: `the runtime ${describeExit(exit)}`,
    });
  }

  #addFindings(row: Row, findings: readonly TraceFinding[]): void {
    if (findings.length === 0) return;
    if (row.findings.length === 0) {
      this.invalidRows += 1;
      this.lanes.get(row.lane)?.invalidRows.push(row.index);
    }
    row.findings.push(...findings);
    this.findings += findings.length;
  }

  #addFrame(frame: TraceFrame, raw: string): void {
    const index = this.rows.length;
    this.#bySeq.set(frame.seq, index);
    const json = isObject(frame.json) ? frame.json : undefined;
    const params = json && isObject(json['params']) ? json['params'] : undefined;
    const request =
      frame.request === undefined ? undefined : this.rows[this.#bySeq.get(frame.request) ?? -1];
    const sessionId = sessionOf(frame.method, params) ?? request?.sessionId;
    const event = frame.method === Method.sessionEvent && params ? params['event'] : undefined;
    const eventType = isObject(event) ? str(event['type']) : undefined;
    if (frame.method !== undefined) this.methods.add(frame.method);
    if (eventType !== undefined) this.eventTypes.add(eventType);
    const lane = request
      ? this.lanes.get(request.lane)!
      : this.#frameLane(frame, sessionId ?? CONNECTION_LANE, index);
    const row: Row = {
      index,
      frame,
      raw,
      sessionId,
      lane: lane.key,
      eventType,
      summary: summarize(frame, json, params, eventType, event),
      findings: [],
      responseIndex: undefined,
    };
    this.rows.push(row);
    if (request) request.responseIndex = index;
    lane.rows += 1;
    this.#addFindings(row, frame.findings ?? []);
    if (params) this.#derive(lane, row, params, isObject(event) ? event : undefined, eventType);
    this.#pairRequest(lane, row, request);
    this.#markSessionRequest(lane, row, request);
  }

  /** The lane of a frame that answers nothing: a prompt after a close starts the next life. */
  #frameLane(frame: TraceFrame, sessionId: string, row: number): Lane {
    const lane = this.#current.get(sessionId);
    const reopens =
      frame.kind === 'request' &&
      frame.method === Method.sessionPrompt &&
      lane !== undefined &&
      (lane.closing || lane.closed);
    return reopens ? this.#newLife(sessionId, row) : this.#laneOf(sessionId, row);
  }

  /** Prompts, interrupts and closes as marks on their lane; a close answered ends the life. */
  #markSessionRequest(lane: Lane, row: Row, request: Row | undefined): void {
    const { frame } = row;
    if (row.sessionId === undefined) return;
    const kind = frame.kind === 'request' ? MARKED_REQUESTS[frame.method ?? ''] : undefined;
    if (kind !== undefined) {
      lane.marks.push({
        kind,
        t: frame.t,
        row: row.index,
        label: `${frame.method} #${JSON.stringify(frame.id)}`,
      });
      if (kind === 'prompt') this.#spans.noteActivity(frame.t);
      if (kind === 'close') lane.closing = true;
    }
    if (request?.frame.method !== Method.sessionClose) return;
    // Refused (a version 1 runtime, say): the session lives on.
    if (frame.kind === 'error') lane.closing = false;
    if (frame.kind === 'result') this.#closeLife(lane);
  }

  /** The life ends, with its children's (a close disposes the session's children too). */
  #closeLife(lane: Lane): void {
    for (const key of this.subtree(lane.key)) {
      const closing = this.lanes.get(key);
      if (!closing || closing.closed) continue;
      closing.closed = true;
      this.sessionsVersion += 1;
    }
  }

  /** Requests of the connection lane (no session) become spans from request to response. */
  #pairRequest(lane: Lane, row: Row, request: Row | undefined): void {
    const { frame } = row;
    if (frame.kind === 'request' && row.sessionId === undefined) {
      const span = this.#open(`request:${frame.seq}`, 'request', frame.method ?? '?', row);
      lane.subRows.place(span);
      lane.spans.push(span);
    }
    if (request && request.sessionId === undefined) {
      this.#close(`request:${request.frame.seq}`, row, frame.kind === 'error' ? 'error' : 'ok');
    }
  }

  #derive(
    lane: Lane,
    row: Row,
    params: Json,
    event: Json | undefined,
    eventType: string | undefined,
  ): void {
    const method = row.frame.method;
    if (method === Method.subagentStarted || method === Method.subagentFinished) {
      this.#deriveSubagent(lane, row, params);
      return;
    }
    if (!event || eventType === undefined) return;
    const data = isObject(event['data']) ? event['data'] : {};
    deriveEvent(this.#book, lane, row, eventType, data);
  }

  #deriveSubagent(lane: Lane, row: Row, params: Json): void {
    const child = str(params['childSessionId']);
    if (child === undefined) return;
    if (row.frame.method === Method.subagentFinished) {
      const childLane = this.#current.get(child);
      const ok = params['status'] === RunStatus.ok;
      if (childLane) this.#close(`subagent:${childLane.key}`, row, ok ? 'ok' : 'error');
      return;
    }
    // A child id seen under another parent's life, or closed, is a new child session.
    let childLane = this.#current.get(child);
    const adopted = childLane?.parent === undefined || childLane.parent === lane.key;
    if (!childLane || childLane.closed || !adopted) childLane = this.#newLife(child, row.index);
    childLane.parent = lane.key;
    if (!lane.children.includes(childLane.key)) lane.children.push(childLane.key);
    lane.spans.push(this.#open(`subagent:${childLane.key}`, 'subagent', child, row));
  }

  #open(key: string, kind: SpanKind, label: string, row: Row): Span {
    return this.#spans.open(key, kind, label, row.frame.t, row.index);
  }

  #close(key: string, row: Row, status: SpanStatus): void {
    this.#spans.close(key, row.frame.t, row.index, status);
  }
}

/** The session a frame belongs to: its `sessionId`, or for subagent frames the parent's. */
function sessionOf(method: string | undefined, params: Json | undefined): string | undefined {
  if (!params) return undefined;
  if (method === Method.subagentStarted || method === Method.subagentFinished) {
    return str(params['parentSessionId']);
  }
  return str(params['sessionId']);
}
