// What a session event adds to its lane: turns, steps and tool calls as spans, and each turn's
// text (the prompt it answers, the reply as it streamed, its tools, how it ended).
import type { Lane, Row, TurnText } from './lanes.js';
import type { Span, SpanKind, SpanStatus } from './spans.js';
import { blocksText, isObject, num, str } from './summaries.js';
import type { Json } from './summaries.js';
import { BlockType, EventType, TurnEndKind } from './vocabulary.js';

/** How events open and close their spans (the model keeps them). */
export interface SpanBook {
  open(key: string, kind: SpanKind, label: string, row: Row): Span;
  close(key: string, row: Row, status: SpanStatus): void;
}

/** What one event type adds to its lane. */
type EventHandler = (
  book: SpanBook,
  lane: Lane,
  row: Row,
  data: Json,
  turn: number | undefined,
) => void;

/** Adds an event of `eventType` with its `data` to `lane`. */
export function deriveEvent(
  book: SpanBook,
  lane: Lane,
  row: Row,
  eventType: string,
  data: Json,
): void {
  EVENTS[eventType]?.(book, lane, row, data, num(data['turn']));
}

/** A turn's text, made on its first event. */
function turnOf(lane: Lane, turn: number): TurnText {
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

/** What each event type adds; the others only show in the list. */
const EVENTS: Readonly<Record<string, EventHandler>> = {
  [EventType.turnStart]: (book, lane, row, _data, turn) => {
    if (turn === undefined) return;
    lane.spans.push(book.open(`${lane.key}\u0000turn:${turn}`, 'turn', `turn ${turn}`, row));
    turnOf(lane, turn);
  },
  [EventType.turnEnd]: (book, lane, row, data, turn) => {
    if (turn === undefined) return;
    const reason = isObject(data['reason']) ? str(data['reason']['kind']) : undefined;
    const status: SpanStatus =
      reason === TurnEndKind.completed ? 'ok' : reason === TurnEndKind.error ? 'error' : 'other';
    book.close(`${lane.key}\u0000turn:${turn}`, row, status);
    turnOf(lane, turn).endReason = reason;
  },
  [EventType.stepStart]: (book, lane, row, data, turn) => {
    if (turn === undefined) return;
    const step = num(data['step']);
    lane.spans.push(
      book.open(`${lane.key}\u0000step:${turn}:${step}`, 'step', `step ${step}`, row),
    );
  },
  [EventType.stepEnd]: (book, lane, row, data, turn) => {
    book.close(`${lane.key}\u0000step:${turn}:${num(data['step'])}`, row, 'ok');
  },
  [EventType.assistantChunk]: (book, lane, _row, data, turn) => {
    if (turn === undefined || !isObject(data['delta'])) return;
    const text = turnOf(lane, turn);
    const delta = data['delta'];
    text.chunks += 1;
    if (delta['type'] === BlockType.text) text.text += str(delta['text']) ?? '';
    if (delta['type'] === BlockType.reasoning) text.reasoning += str(delta['text']) ?? '';
  },
  [EventType.userMessage]: (book, lane, _row, data) => {
    const last = [...lane.turns.values()].pop();
    if (last && last.prompt === undefined) last.prompt = blocksText(data['content']);
  },
  [EventType.assistantMessage]: (book, lane, _row, data) => {
    const message = isObject(data['message']) ? data['message'] : {};
    const last = [...lane.turns.values()].pop();
    if (last) last.finalText = blocksText(message['content']);
  },
  [EventType.toolCall]: (book, lane, row, data, turn) => {
    const name = str(data['name']) ?? '?';
    lane.spans.push(
      book.open(`${lane.key}\u0000tool:${str(data['id']) ?? '?'}`, 'tool', name, row),
    );
    if (turn === undefined) return;
    const args = str(data['arguments']) ?? '';
    turnOf(lane, turn).tools.push({ name, arguments: args, result: undefined });
  },
  [EventType.toolResult]: (book, lane, row, data) => {
    const id = str(data['toolCallId']) ?? '?';
    book.close(`${lane.key}\u0000tool:${id}`, row, data['isError'] === true ? 'error' : 'ok');
    const tool = [...lane.turns.values()].pop()?.tools.find((t) => t.result === undefined);
    if (tool) tool.result = blocksText(data['content']);
  },
};
