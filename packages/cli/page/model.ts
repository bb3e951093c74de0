// The trace as the page shows it: rows (one per frame), lanes with their spans, filters'
// vocabularies. Records are added one at a time, so a live trace grows the same model.
//
// A lane is one life of a session: a `session/prompt` sent after the session's `session/close`
// starts a new session under the same id (WIRE.md §9: its turns and `seq` start again), so it gets
// a lane of its own, and so do the child sessions its turns start. Lanes are keyed by a key unique
// in the trace: the session id for its first life, the id with `#2`, `#3`… for later ones.
import type {
  TraceExit,
  TraceFinding,
  TraceFrame,
  TraceHeader,
  TraceRecord,
} from '@dsh-sdk/protocol';
import { OpenSpans, SubRows } from './spans.js';
import type { Span, SpanKind, SpanStatus } from './spans.js';
import { blocksText, isObject, num, str, summarize } from './summaries.js';
import type { Json } from './summaries.js';
import { BlockType, EventType, Method, RunStatus, TurnEndKind } from './vocabulary.js';

export type { Span, SpanKind, SpanStatus } from './spans.js';
export { blocksText } from './summaries.js';

/** One frame of the trace, with what the page derived from it. */
export interface Row {
  readonly index: number;
  readonly frame: TraceFrame;
  /** The record's line, for search (lower-cased on first use). */
  readonly raw: string;
  readonly sessionId: string | undefined;
  /** The key of the lane it belongs to (a response: its request's). */
  readonly lane: string;
  readonly eventType: string | undefined;
  readonly summary: string;
  /** The frame's findings and those recorded about it later (an unanswered request). */
  readonly findings: TraceFinding[];
  /** For a request: the row of its response, once seen. */
  responseIndex: number | undefined;
}

/** A moment on a lane: a request the client sent about the session, or the runtime's exit. */
export type MarkKind = 'prompt' | 'interrupt' | 'close' | 'exit';

export interface Mark {
  readonly kind: MarkKind;
  readonly t: number;
  /** The row it was made at (the request; for the exit, the last frame), if any. */
  readonly row: number | undefined;
  readonly label: string;
}

/** The streamed reply of one turn, as the chunks came. */
export interface TurnText {
  readonly turn: number;
  /** The user's message the turn answers (its `user/message` text), once seen. */
  prompt: string | undefined;
  text: string;
  reasoning: string;
  chunks: number;
  /** The final `assistant/message` text, once seen. */
  finalText: string | undefined;
  endReason: string | undefined;
  readonly tools: { name: string; arguments: string; result: string | undefined }[];
}

/** One life of a session. The connection itself (initialize, shutdown) has a lane too, key ''. */
export interface Lane {
  /** Unique in the trace: the session id for its first life, `<id>#<life>` after. */
  readonly key: string;
  /** The session id on the wire ('' for the connection). */
  readonly sessionId: string;
  /** 1, then one more each time the id is prompted again after its `session/close`. */
  readonly life: number;
  /** The parent's lane key, for a child session. */
  parent: string | undefined;
  /** The children's lane keys. */
  readonly children: string[];
  readonly spans: Span[];
  /** Rows of this lane that carry findings. */
  readonly invalidRows: number[];
  readonly turns: Map<number, TurnText>;
  readonly marks: Mark[];
  /** A `session/close` was sent: a prompt after it starts the next life. */
  closing: boolean;
  /** The `session/close` was answered (or the parent's was): this life is over. */
  closed: boolean;
  readonly firstRow: number;
  rows: number;
  /** Its overlapping requests' rows (the connection's lane). */
  readonly subRows: SubRows;
}

/** The lane of frames that belong to no session. */
export const CONNECTION_LANE = '';

/** The client's requests drawn as marks on their session's lane. */
const MARKED_REQUESTS: Readonly<Record<string, MarkKind>> = {
  [Method.sessionPrompt]: 'prompt',
  [Method.sessionInterrupt]: 'interrupt',
  [Method.sessionClose]: 'close',
};

/** A lane's name for people: `s1`, `s1 · life 2`, `connection`. */
export function laneName(lane: Lane): string {
  if (lane.key === CONNECTION_LANE) return 'connection';
  return lane.life === 1 ? lane.sessionId : `${lane.sessionId} · life ${lane.life}`;
}

/** How the runtime ended, in words: "exited with code 3", "was killed by SIGKILL"… */
export function describeExit(exit: TraceExit): string {
  if (exit.spawnError !== undefined) return `could not be started: ${exit.spawnError}`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  if (exit.exitCode !== null) return `exited with code ${exit.exitCode}`;
  return 'ended (its exit status is unknown)';
}

/** What one event type adds to its lane. */
type EventHandler = (lane: Lane, row: Row, data: Json, turn: number | undefined) => void;

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
    this.#events[eventType]?.(lane, row, data, num(data['turn']));
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

  /** What each event type adds; the others only show in the list. */
  readonly #events: Readonly<Record<string, EventHandler>> = {
    [EventType.turnStart]: (lane, row, _data, turn) => {
      if (turn === undefined) return;
      lane.spans.push(this.#open(`${lane.key}\u0000turn:${turn}`, 'turn', `turn ${turn}`, row));
      this.#turn(lane, turn);
    },
    [EventType.turnEnd]: (lane, row, data, turn) => {
      if (turn === undefined) return;
      const reason = isObject(data['reason']) ? str(data['reason']['kind']) : undefined;
      const status: SpanStatus =
        reason === TurnEndKind.completed ? 'ok' : reason === TurnEndKind.error ? 'error' : 'other';
      this.#close(`${lane.key}\u0000turn:${turn}`, row, status);
      this.#turn(lane, turn).endReason = reason;
    },
    [EventType.stepStart]: (lane, row, data, turn) => {
      if (turn === undefined) return;
      const step = num(data['step']);
      lane.spans.push(
        this.#open(`${lane.key}\u0000step:${turn}:${step}`, 'step', `step ${step}`, row),
      );
    },
    [EventType.stepEnd]: (lane, row, data, turn) => {
      this.#close(`${lane.key}\u0000step:${turn}:${num(data['step'])}`, row, 'ok');
    },
    [EventType.assistantChunk]: (lane, _row, data, turn) => {
      if (turn === undefined || !isObject(data['delta'])) return;
      const text = this.#turn(lane, turn);
      const delta = data['delta'];
      text.chunks += 1;
      if (delta['type'] === BlockType.text) text.text += str(delta['text']) ?? '';
      if (delta['type'] === BlockType.reasoning) text.reasoning += str(delta['text']) ?? '';
    },
    [EventType.userMessage]: (lane, _row, data) => {
      const last = [...lane.turns.values()].pop();
      if (last && last.prompt === undefined) last.prompt = blocksText(data['content']);
    },
    [EventType.assistantMessage]: (lane, _row, data) => {
      const message = isObject(data['message']) ? data['message'] : {};
      const last = [...lane.turns.values()].pop();
      if (last) last.finalText = blocksText(message['content']);
    },
    [EventType.toolCall]: (lane, row, data, turn) => {
      const name = str(data['name']) ?? '?';
      lane.spans.push(
        this.#open(`${lane.key}\u0000tool:${str(data['id']) ?? '?'}`, 'tool', name, row),
      );
      if (turn === undefined) return;
      const args = str(data['arguments']) ?? '';
      this.#turn(lane, turn).tools.push({ name, arguments: args, result: undefined });
    },
    [EventType.toolResult]: (lane, row, data) => {
      const id = str(data['toolCallId']) ?? '?';
      this.#close(`${lane.key}\u0000tool:${id}`, row, data['isError'] === true ? 'error' : 'ok');
      const tool = [...lane.turns.values()].pop()?.tools.find((t) => t.result === undefined);
      if (tool) tool.result = blocksText(data['content']);
    },
  };

  #turn(lane: Lane, turn: number): TurnText {
    let text = lane.turns.get(turn);
    if (!text) {
      text = {
        turn,
        prompt: undefined,
        text: '',
        reasoning: '',
        chunks: 0,
        finalText: undefined,
        endReason: undefined,
        tools: [],
      };
      lane.turns.set(turn, text);
    }
    return text;
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
