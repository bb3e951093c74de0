// One line of words per frame, for the list's summary column, and the small JSON readers the
// model shares with it.
import type { TraceFrame } from '@dsh-sdk/protocol';
import { BlockType, EventType, Method } from './vocabulary.js';

export type Json = { readonly [key: string]: unknown };

const RESULT_SUMMARY_LIMIT = 80;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
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

export function summarize(
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
