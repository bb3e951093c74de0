// The trace as the page shows it: rows (one per frame), session lanes with their spans, filters'
// vocabularies. Records are added one at a time, so a live trace grows the same model.
import type {
  TraceExit,
  TraceFinding,
  TraceFrame,
  TraceHeader,
  TraceRecord,
} from '@dsh-sdk/protocol';
import { BlockType, EventType, Method, RunStatus, TurnEndKind } from './vocabulary.js';

type Json = { readonly [key: string]: unknown };

/** One frame of the trace, with what the page derived from it. */
export interface Row {
  readonly index: number;
  readonly frame: TraceFrame;
  /** The record's line, for search (lower-cased on first use). */
  readonly raw: string;
  readonly sessionId: string | undefined;
  readonly eventType: string | undefined;
  readonly summary: string;
  /** The frame's findings and those recorded about it later (an unanswered request). */
  readonly findings: TraceFinding[];
  /** For a request: the row of its response, once seen. */
  responseIndex: number | undefined;
}

export type SpanKind = 'turn' | 'step' | 'tool' | 'subagent' | 'request';
export type SpanStatus = 'open' | 'ok' | 'error' | 'other';

/** Something with a beginning and (once seen) an end on a lane: a turn, a step, a tool call… */
export interface Span {
  readonly kind: SpanKind;
  readonly label: string;
  readonly start: number;
  readonly startRow: number;
  end: number | undefined;
  endRow: number | undefined;
  status: SpanStatus;
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

/** A session's lane. The connection itself (initialize, shutdown) has one too, with id ''. */
export interface Lane {
  readonly id: string;
  parent: string | undefined;
  readonly children: string[];
  readonly spans: Span[];
  /** Rows of this lane that carry findings. */
  readonly invalidRows: number[];
  readonly turns: Map<number, TurnText>;
  readonly marks: Mark[];
  /** A `session/close` was answered, and no prompt came since. */
  closed: boolean;
  readonly firstRow: number;
  rows: number;
}

/** The lane of frames that belong to no session. */
export const CONNECTION_LANE = '';

/** The client's requests drawn as marks on their session's lane. */
const MARKED_REQUESTS: Readonly<Record<string, MarkKind>> = {
  [Method.sessionPrompt]: 'prompt',
  [Method.sessionInterrupt]: 'interrupt',
  [Method.sessionClose]: 'close',
};

const RESULT_SUMMARY_LIMIT = 80;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function clip(text: string, limit = RESULT_SUMMARY_LIMIT): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > limit ? `${oneLine.slice(0, limit - 1)}…` : oneLine;
}

/** The text of a content-block list (text blocks only). */
export function blocksText(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  return blocks
    .filter((b): b is Json => isObject(b) && b['type'] === BlockType.text)
    .map((b) => str(b['text']) ?? '')
    .join('\n');
}

export class TraceModel {
  header: TraceHeader | undefined;
  exit: TraceExit | undefined;
  readonly rows: Row[] = [];
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
  /** Bumped when a lane appears or a session is closed or reopened (menus of sessions). */
  sessionsVersion = 0;
  readonly #bySeq = new Map<number, number>();
  readonly #openSpans = new Map<string, Span>();

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
      case 'exit': {
        this.exit = record;
        const how = record.exitCode ?? record.signal ?? '?';
        const last = this.rows.length - 1;
        this.#lane(CONNECTION_LANE, Math.max(last, 0)).marks.push({
          kind: 'exit',
          t: record.t,
          row: last >= 0 ? last : undefined,
          label: `the runtime exited (${how})`,
        });
        return;
      }
      default:
        return;
    }
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

  /** The session and every descendant. */
  subtree(sessionId: string): Set<string> {
    const ids = new Set<string>();
    const visit = (id: string): void => {
      if (ids.has(id)) return;
      ids.add(id);
      for (const child of this.lanes.get(id)?.children ?? []) visit(child);
    };
    visit(sessionId);
    return ids;
  }

  #lane(id: string, row: number): Lane {
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = {
        id,
        parent: undefined,
        children: [],
        spans: [],
        invalidRows: [],
        turns: new Map(),
        marks: [],
        closed: false,
        firstRow: row,
        rows: 0,
      };
      this.lanes.set(id, lane);
      this.sessionsVersion += 1;
    }
    return lane;
  }

  #addFindings(row: Row, findings: readonly TraceFinding[]): void {
    if (findings.length === 0) return;
    if (row.findings.length === 0) {
      this.invalidRows += 1;
      this.#lane(row.sessionId ?? CONNECTION_LANE, row.index).invalidRows.push(row.index);
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
    const row: Row = {
      index,
      frame,
      raw,
      sessionId,
      eventType,
      summary: summarize(frame, json, params, eventType, event),
      findings: [],
      responseIndex: undefined,
    };
    this.rows.push(row);
    if (request) request.responseIndex = index;
    const lane = this.#lane(sessionId ?? CONNECTION_LANE, index);
    lane.rows += 1;
    this.#addFindings(row, frame.findings ?? []);
    if (params) this.#derive(lane, row, params, isObject(event) ? event : undefined, eventType);
    this.#pairRequest(row, request);
    this.#markSessionRequest(lane, row, request);
  }

  /** Prompts, interrupts and closes as marks on their lane; a close answered closes the lane. */
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
    }
    const closedNow =
      kind === 'prompt'
        ? false
        : frame.kind === 'result' && request?.frame.method === Method.sessionClose
          ? true
          : lane.closed;
    if (closedNow !== lane.closed) {
      lane.closed = closedNow;
      this.sessionsVersion += 1;
    }
  }

  /** Requests of the connection lane (no session) become spans from request to response. */
  #pairRequest(row: Row, request: Row | undefined): void {
    const { frame } = row;
    if (frame.kind === 'request' && row.sessionId === undefined) {
      const span = this.#open(`request:${frame.seq}`, 'request', frame.method ?? '?', row);
      this.#lane(CONNECTION_LANE, row.index).spans.push(span);
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
      const child = str(params['childSessionId']);
      if (child === undefined) return;
      if (method === Method.subagentStarted) {
        const childLane = this.#lane(child, row.index);
        childLane.parent = lane.id;
        if (!lane.children.includes(child)) lane.children.push(child);
        lane.spans.push(this.#open(`subagent:${child}`, 'subagent', child, row));
      } else {
        const ok = params['status'] === RunStatus.ok;
        this.#close(`subagent:${child}`, row, ok ? 'ok' : 'error');
      }
      return;
    }
    if (!event || eventType === undefined) return;
    const data = isObject(event['data']) ? event['data'] : {};
    const turn = num(data['turn']);
    const key = `${lane.id}\u0000`;
    switch (eventType) {
      case EventType.turnStart:
        if (turn === undefined) return;
        lane.spans.push(this.#open(`${key}turn:${turn}`, 'turn', `turn ${turn}`, row));
        this.#turn(lane, turn);
        return;
      case EventType.turnEnd: {
        if (turn === undefined) return;
        const reason = isObject(data['reason']) ? str(data['reason']['kind']) : undefined;
        const status =
          reason === TurnEndKind.completed
            ? 'ok'
            : reason === TurnEndKind.error
              ? 'error'
              : 'other';
        this.#close(`${key}turn:${turn}`, row, status);
        this.#turn(lane, turn).endReason = reason;
        return;
      }
      case EventType.stepStart:
        if (turn === undefined) return;
        lane.spans.push(
          this.#open(
            `${key}step:${turn}:${num(data['step'])}`,
            'step',
            `step ${num(data['step'])}`,
            row,
          ),
        );
        return;
      case EventType.stepEnd:
        this.#close(`${key}step:${turn}:${num(data['step'])}`, row, 'ok');
        return;
      case EventType.assistantChunk: {
        if (turn === undefined || !isObject(data['delta'])) return;
        const text = this.#turn(lane, turn);
        const delta = data['delta'];
        text.chunks += 1;
        if (delta['type'] === BlockType.text) text.text += str(delta['text']) ?? '';
        if (delta['type'] === BlockType.reasoning) text.reasoning += str(delta['text']) ?? '';
        return;
      }
      case EventType.userMessage: {
        const last = [...lane.turns.values()].pop();
        if (last && last.prompt === undefined) last.prompt = blocksText(data['content']);
        return;
      }
      case EventType.assistantMessage: {
        const message = isObject(data['message']) ? data['message'] : {};
        const last = [...lane.turns.values()].pop();
        if (last) last.finalText = blocksText(message['content']);
        return;
      }
      case EventType.toolCall: {
        const id = str(data['id']) ?? '?';
        const name = str(data['name']) ?? '?';
        lane.spans.push(this.#open(`${key}tool:${id}`, 'tool', name, row));
        if (turn !== undefined) {
          this.#turn(lane, turn).tools.push({
            name,
            arguments: str(data['arguments']) ?? '',
            result: undefined,
          });
        }
        return;
      }
      case EventType.toolResult: {
        const id = str(data['toolCallId']) ?? '?';
        this.#close(`${key}tool:${id}`, row, data['isError'] === true ? 'error' : 'ok');
        const last = [...lane.turns.values()].pop();
        const tool = last?.tools.find((t) => t.result === undefined);
        if (tool) tool.result = blocksText(data['content']);
        return;
      }
      default:
        return;
    }
  }

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
    const span: Span = {
      kind,
      label,
      start: row.frame.t,
      startRow: row.index,
      end: undefined,
      endRow: undefined,
      status: 'open',
    };
    this.#openSpans.set(key, span);
    return span;
  }

  #close(key: string, row: Row, status: SpanStatus): void {
    const span = this.#openSpans.get(key);
    if (!span) return;
    this.#openSpans.delete(key);
    span.end = row.frame.t;
    span.endRow = row.index;
    span.status = status;
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

function summarize(
  frame: TraceFrame,
  json: Json | undefined,
  params: Json | undefined,
  eventType: string | undefined,
  event: unknown,
): string {
  if (frame.head !== undefined) return `${frame.bytes} bytes, not decoded`;
  if (frame.text !== undefined) return `not JSON: ${clip(frame.text)}`;
  if (!json) return clip(JSON.stringify(frame.json) ?? '');
  if (frame.kind === 'result') return `result ${clip(JSON.stringify(json['result']) ?? '')}`;
  if (frame.kind === 'error') {
    const error = isObject(json['error']) ? json['error'] : {};
    return `error ${String(error['code'])} ${clip(str(error['message']) ?? '')}`;
  }
  if (frame.method === Method.sessionPrompt && params) {
    return clip(
      blocksText(params['contentBlocks']) || (JSON.stringify(params['contentBlocks']) ?? ''),
    );
  }
  if (frame.method === Method.sessionStatus && params) return String(params['status']);
  if (frame.method === Method.subagentStarted && params)
    return `→ ${String(params['childSessionId'])}`;
  if (frame.method === Method.subagentFinished && params) {
    return `${String(params['childSessionId'])} ${String(params['status'])} ${String(params['stopReason'])}`;
  }
  if (eventType !== undefined && isObject(event)) return summarizeEvent(eventType, event);
  return clip(JSON.stringify(params ?? json) ?? '');
}

function summarizeEvent(eventType: string, event: Json): string {
  const data = isObject(event['data']) ? event['data'] : {};
  switch (eventType) {
    case EventType.assistantChunk: {
      const delta = isObject(data['delta']) ? data['delta'] : {};
      return `${eventType} ${JSON.stringify(str(delta['text']) ?? delta['type'])}`;
    }
    case EventType.turnEnd:
      return `${eventType} ${isObject(data['reason']) ? String(data['reason']['kind']) : ''}`;
    case EventType.toolCall:
      return `${eventType} ${String(data['name'])} ${clip(str(data['arguments']) ?? '', 50)}`;
    case EventType.userMessage:
      return `${eventType} ${clip(blocksText(data['content']), 60)}`;
    case EventType.assistantMessage: {
      const message = isObject(data['message']) ? data['message'] : {};
      return `${eventType} ${clip(blocksText(message['content']), 60)}`;
    }
    default:
      return `${eventType}${data['turn'] === undefined ? '' : ` ${String(data['turn'])}`}`;
  }
}
