// The detail pane: one frame (its facts, findings, pairing and JSON), or one session (its turns,
// the assistant text as it streamed, tool calls and children).
import { el, formatBytes, formatMs } from './dom.js';
import { CONNECTION_LANE, laneName } from './model.js';
import type { Lane, Row, TraceModel, TurnText } from './model.js';

/** Beyond this, the JSON is shown cut, with a button for the rest (an 8 MiB image is long). */
const JSON_PREVIEW_CHARS = 200_000;

export interface DetailHandlers {
  readonly onRow: (row: number) => void;
}

const ARROWS = { clientToServer: 'client → runtime', serverToClient: 'runtime → client' } as const;

function fact(name: string, value: string | Node, key = name): HTMLElement {
  return el('div', { class: 'fact', 'data-fact': key }, el('dt', {}, name), el('dd', {}, value));
}

function rowLink(model: TraceModel, index: number, handlers: DetailHandlers): HTMLElement {
  const row = model.rows[index]!;
  const link = el('button', { type: 'button', class: 'link', 'data-goto': String(index) });
  link.textContent = `frame ${row.frame.seq} (${row.frame.kind ?? 'frame'})`;
  link.addEventListener('click', () => handlers.onRow(index));
  return link;
}

export function renderFrameDetail(
  pane: HTMLElement,
  model: TraceModel,
  row: Row,
  handlers: DetailHandlers,
): void {
  const { frame } = row;
  const facts = el('dl', { class: 'facts' });
  facts.append(
    fact('frame', String(frame.seq)),
    fact('direction', ARROWS[frame.dir]),
    fact('time', formatMs(frame.t)),
    fact('line', String(frame.line)),
    fact('size', formatBytes(frame.bytes)),
  );
  if (frame.kind) facts.append(fact('kind', frame.kind));
  if (frame.method) facts.append(fact('method', frame.method));
  if (frame.id !== undefined) facts.append(fact('id', JSON.stringify(frame.id)));
  const lane = model.lanes.get(row.lane);
  if (row.sessionId !== undefined) {
    facts.append(fact('session', lane ? laneName(lane) : row.sessionId));
  }
  if (row.eventType !== undefined) facts.append(fact('event', row.eventType));
  if (frame.request !== undefined) {
    const request = model.rows.findIndex((r) => r.frame.seq === frame.request);
    if (request >= 0) facts.append(fact('answers', rowLink(model, request, handlers)));
  }
  if (frame.latencyMs !== undefined) facts.append(fact('latency', formatMs(frame.latencyMs)));
  if (row.responseIndex !== undefined) {
    const response = model.rows[row.responseIndex]!;
    facts.append(fact('answered by', rowLink(model, row.responseIndex, handlers)));
    if (response.frame.latencyMs !== undefined) {
      facts.append(fact('latency', formatMs(response.frame.latencyMs)));
    }
  }
  const parts: HTMLElement[] = [el('h2', {}, `Frame ${frame.seq}`), facts];
  if (row.findings.length > 0) parts.push(renderFindings(row));
  parts.push(renderContent(row));
  pane.replaceChildren(...parts);
}

function renderFindings(row: Row): HTMLElement {
  const list = el('ul', { class: 'findings' });
  for (const finding of row.findings) {
    const item = el(
      'li',
      { class: 'finding', 'data-reason': finding.reason },
      el('strong', {}, finding.reason),
      ` ${finding.message}`,
    );
    if (finding.violations && finding.violations.length > 0) {
      const violations = el('ul', { class: 'violations' });
      for (const v of finding.violations) {
        violations.append(
          el(
            'li',
            { 'data-pointer': v.pointer },
            el('code', {}, v.pointer || '/'),
            ` ${v.message}`,
          ),
        );
      }
      item.append(violations);
    }
    list.append(item);
  }
  return el('section', { class: 'detail-findings' }, el('h3', {}, 'Findings'), list);
}

function renderContent(row: Row): HTMLElement {
  const { frame } = row;
  if (frame.head !== undefined) {
    return el(
      'section',
      {},
      el('h3', {}, `First bytes (base64), of ${formatBytes(frame.bytes)}`),
      el('pre', { class: 'json' }, frame.head),
    );
  }
  if (frame.text !== undefined) {
    return el(
      'section',
      {},
      el('h3', {}, 'Text (not JSON)'),
      el('pre', { class: 'json' }, frame.text),
    );
  }
  const text = JSON.stringify(frame.json, null, 2) ?? '';
  const pre = el('pre', { class: 'json', 'data-testid': 'frame-json' });
  const section = el('section', {}, el('h3', {}, 'JSON'), pre);
  if (text.length <= JSON_PREVIEW_CHARS) {
    pre.textContent = text;
    return section;
  }
  pre.textContent = `${text.slice(0, JSON_PREVIEW_CHARS)}\n…`;
  const more = el('button', { type: 'button' }, `show all ${formatBytes(text.length)}`);
  more.addEventListener('click', () => {
    pre.textContent = text;
    more.remove();
  });
  section.append(more);
  return section;
}

/**
 * One lane (a session's life): its facts and turns. Without a lane, `name` is a session just
 * prompted whose frames have not come yet.
 */
export function renderSessionDetail(
  pane: HTMLElement,
  model: TraceModel,
  lane: Lane | undefined,
  name: string,
  handlers: DetailHandlers,
): void {
  if (!lane) {
    pane.replaceChildren(
      el('h2', {}, `Session ${name}`),
      el('p', { class: 'hint' }, 'waiting for its first frame…'),
    );
    return;
  }
  const facts = el('dl', { class: 'facts' });
  facts.append(fact('frames', String(lane.rows)));
  if (lane.life > 1) {
    facts.append(fact('life', `${lane.life}: a new session under the id of a closed one`));
  }
  if (lane.closed) facts.append(fact('state', 'closed'));
  const nameOf = (key: string): string => {
    const other = model.lanes.get(key);
    return other ? laneName(other) : key;
  };
  if (lane.parent !== undefined) facts.append(fact('parent', nameOf(lane.parent)));
  if (lane.children.length > 0) {
    facts.append(fact('children', lane.children.map(nameOf).join(', ')));
  }
  if (lane.invalidRows.length > 0)
    facts.append(fact('invalid frames', String(lane.invalidRows.length)));
  const turns = el('div', { class: 'turns' });
  for (const turn of lane.turns.values()) turns.append(renderTurn(model, turn));
  const first = el('button', { type: 'button', class: 'link' }, 'first frame');
  first.addEventListener('click', () => handlers.onRow(lane.firstRow));
  const title = lane.key === CONNECTION_LANE ? 'the connection' : laneName(lane);
  pane.replaceChildren(el('h2', {}, `Session ${title}`), facts, first, turns);
}

function renderTurn(model: TraceModel, turn: TurnText): HTMLElement {
  const block = el(
    'section',
    { class: 'turn', 'data-turn': String(turn.turn) },
    el('h3', {}, `Turn ${turn.turn} · ${turnState(model, turn.endReason)}`),
  );
  // The reply streams under the prompt it answers.
  if (turn.prompt !== undefined) {
    block.append(el('pre', { class: 'turn-prompt', 'data-testid': 'turn-prompt' }, turn.prompt));
  }
  if (turn.reasoning) block.append(el('pre', { class: 'reasoning' }, turn.reasoning));
  block.append(
    el('pre', { class: 'streamed', 'data-testid': 'streamed-text' }, turn.text),
    el('div', { class: 'meta' }, `${turn.chunks} chunk${turn.chunks === 1 ? '' : 's'}`),
  );
  for (const tool of turn.tools) {
    block.append(
      el(
        'div',
        { class: 'tool', 'data-tool': tool.name },
        el('strong', {}, `tool ${tool.name}`),
        ` ${tool.arguments}`,
        tool.result === undefined ? '' : el('div', { class: 'tool-result' }, `→ ${tool.result}`),
      ),
    );
  }
  return block;
}

/** How a turn ended, or that it never will: the runtime is gone. */
function turnState(model: TraceModel, endReason: string | undefined): string {
  if (endReason !== undefined) return endReason;
  return model.exit ? 'unfinished (the runtime exited)' : 'running';
}
