// dsh-sdk view in a real headless Chromium: recorded traces (a delegate turn from each reference
// runtime, invalid frames, a 100,000-frame burst) opened from the self-contained HTML file, and
// checked element by element. A console error fails the test.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { IDL_VERSION, Method, TRACE_FORMAT, TRACE_FORMAT_VERSION } from '@dsh-sdk/protocol';
import type { TraceFrame, TraceRecord } from '@dsh-sdk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { errorsOf, launchBrowser } from './helpers/browser.js';
import type { TestBrowser } from './helpers/browser.js';
import { framesOf, PY_RUNTIME, readTraceFile, tempDir, TS_RUNTIME } from './helpers/cli.js';
import {
  recordBurstTrace,
  recordDelegateTrace,
  recordInterruptedTrace,
  recordInvalidTrace,
  recordOverlappingTrace,
  recordReopenedTrace,
  recordPythonClientTrace,
  viewTrace,
} from './helpers/traces.js';

let browser: TestBrowser;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const page of pages.splice(0)) {
    const errors = errorsOf(page);
    await page.close();
    expect(errors).toEqual([]);
  }
});
afterAll(async () => {
  await browser?.close();
});

async function open(html: string): Promise<Page> {
  const page = await browser.newPage();
  pages.push(page);
  await page.goto(`file://${html}`);
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.isHidden('#banner')).toBe(true);
  return page;
}

const shown = async (page: Page): Promise<number> =>
  Number(await page.getAttribute('#stats', 'data-shown'));
const visibleCells = (page: Page, cell: string): Promise<string[]> =>
  page.$$eval(`#list .vl-row:not([hidden]) .c-${cell}`, (nodes) =>
    nodes.map((n) => n.textContent ?? ''),
  );
const fact = (page: Page, name: string): Promise<string | null> =>
  page.textContent(`#detail [data-fact="${name}"] dd`);

function params(frame: TraceFrame): Record<string, unknown> {
  return ((frame.json as { params?: Record<string, unknown> }).params ?? {}) as Record<
    string,
    unknown
  >;
}

function lastAssistantText(frames: readonly TraceFrame[], sessionId: string): string {
  const messages = frames.filter((f) => {
    const event = params(f)['event'] as { type?: string } | undefined;
    return (
      f.method === Method.sessionEvent &&
      params(f)['sessionId'] === sessionId &&
      event?.type === 'assistant/message'
    );
  });
  const event = params(messages.at(-1)!)['event'] as {
    data: { message: { content: { text: string }[] } };
  };
  return event.data.message.content.map((b) => b.text).join('\n');
}

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('a delegate turn recorded from the %s reference runtime', (_name, runtime) => {
  let html: string;
  let frames: TraceFrame[];
  beforeAll(async () => {
    const trace = await recordDelegateTrace(runtime);
    frames = framesOf(readTraceFile(trace));
    html = await viewTrace(trace);
  });

  test('lanes: the connection, the session, and its child nested under it', async () => {
    const page = await open(html);
    expect(Number(await page.getAttribute('#stats', 'data-frames'))).toBe(frames.length);
    const lanes = await page.$$eval('.tl-labels [data-session]', (nodes) =>
      nodes.map((n) => ({
        id: (n as HTMLElement).dataset['session'],
        child: n.classList.contains('tl-child'),
      })),
    );
    expect(lanes).toEqual([
      { id: '', child: false },
      { id: 's1', child: false },
      { id: 's1/child1', child: true },
    ]);
    const spans = (session: string) =>
      page.$$eval(`.tl-lane[data-session="${session}"] .tl-span`, (nodes) =>
        nodes.map(
          (n) =>
            `${(n as HTMLElement).dataset['kind']}:${n.classList.contains('tl-ok') ? 'ok' : 'not-ok'}`,
        ),
      );
    expect((await spans('s1')).sort()).toEqual(['step:ok', 'subagent:ok', 'tool:ok', 'turn:ok']);
    expect((await spans('s1/child1')).sort()).toEqual(['step:ok', 'turn:ok']);
    expect(await spans('')).toEqual(['request:ok', 'request:ok']);
    expect(await page.getAttribute('.tl-lane[data-session="s1"] .tl-subagent', 'title')).toMatch(
      /^s1\/child1 · /,
    );
  });

  test("a session's detail shows the assistant text as it streamed, and the tool call", async () => {
    const page = await open(html);
    await page.click('.tl-label[data-session="s1"]');
    expect(await page.getAttribute('#detail', 'data-showing')).toBe('session:s1');
    expect(await page.textContent('#detail [data-testid="streamed-text"]')).toBe(
      lastAssistantText(frames, 's1'),
    );
    expect(await page.textContent('#detail .tool strong')).toBe('tool delegate');
    expect(await page.textContent('#detail .tool-result')).toBe(
      `→ ${lastAssistantText(frames, 's1/child1')}`,
    );
    await page.click('.tl-label[data-session="s1/child1"]');
    // Clicking a lane zooms the timeline onto its activity: the child's turn is in view, magnified.
    const { turn, tracks, inner } = await page.evaluate(() => {
      const rect = (selector: string) =>
        document.querySelector(selector)!.getBoundingClientRect().toJSON() as DOMRect;
      return {
        turn: rect('.tl-lane[data-session="s1/child1"] .tl-turn'),
        tracks: rect('.tl-tracks'),
        inner: rect('.tl-inner'),
      };
    });
    expect(inner.width).toBeGreaterThan(tracks.width * 1.5);
    expect(turn.left).toBeGreaterThanOrEqual(tracks.left);
    expect(turn.left).toBeLessThan(tracks.right);
    expect(await page.textContent('#detail [data-testid="streamed-text"]')).toBe(
      lastAssistantText(frames, 's1/child1'),
    );
  });

  test('a request and its response are linked, with the latency', async () => {
    const page = await open(html);
    const prompt = frames.find((f) => f.kind === 'request' && f.method === Method.sessionPrompt)!;
    const response = frames.find((f) => f.request === prompt.seq)!;
    await page.click(`#list .vl-row[data-item="${frames.indexOf(prompt)}"]`);
    expect(await fact(page, 'method')).toBe(Method.sessionPrompt);
    expect(await fact(page, 'session')).toBe('s1');
    expect(JSON.parse((await page.textContent('[data-testid="frame-json"]'))!)).toEqual(
      prompt.json,
    );
    await page.click('#detail [data-fact="answered by"] button');
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`frame:${response.seq}`);
    expect(await fact(page, 'kind')).toBe('result');
    expect(await fact(page, 'latency')).toMatch(
      new RegExp(`^${response.latencyMs!.toFixed(1)} ms|^${response.latencyMs!.toFixed(3)} ms`),
    );
    expect(await page.$eval('.vl-row.selected .c-seq', (n) => n.textContent)).toBe(
      String(response.seq),
    );
  });

  test('filters by method, session (with its children) and event type, and search', async () => {
    const page = await open(html);
    await page.selectOption('#filter-method', Method.sessionStatus);
    expect(await shown(page)).toBe(frames.filter((f) => f.method === Method.sessionStatus).length);
    expect(new Set(await visibleCells(page, 'method'))).toEqual(new Set([Method.sessionStatus]));
    await page.selectOption('#filter-method', '');

    await page.selectOption('#filter-session', 's1');
    const inTree = frames.filter((f) => {
      const p = params(f);
      const session = p['sessionId'] ?? p['parentSessionId'];
      return (
        session === 's1' ||
        session === 's1/child1' ||
        (f.kind === 'result' && f.method === Method.sessionPrompt)
      );
    });
    expect(await shown(page)).toBe(inTree.length);
    await page.selectOption('#filter-session', 's1/child1');
    expect(new Set(await visibleCells(page, 'session'))).toEqual(new Set(['s1/child1']));
    await page.selectOption('#filter-session', '');

    await page.selectOption('#filter-event', 'assistant/chunk');
    const chunks = frames.filter(
      (f) => (params(f)['event'] as { type?: string } | undefined)?.type === 'assistant/chunk',
    );
    expect(await shown(page)).toBe(chunks.length);
    await page.selectOption('#filter-event', '');

    await page.fill('#search', 'TOOL/RESULT');
    await page.waitForFunction(
      () => document.querySelector('#stats')?.getAttribute('data-shown') === '1',
    );
    expect(await visibleCells(page, 'method')).toEqual(['tool/result']);
  });
});

describe('a delegate turn recorded by the Python client itself (its trace option)', () => {
  let html: string;
  let frames: TraceFrame[];
  beforeAll(async () => {
    const trace = await recordPythonClientTrace();
    const records = readTraceFile(trace);
    expect(records[0]).toMatchObject({ type: 'header', recorder: 'dsh_sdk.client' });
    expect(records.at(-1)).toMatchObject({ type: 'exit', exitCode: 0, findings: 0 });
    frames = framesOf(records);
    html = await viewTrace(trace);
  });

  test('renders every frame, the session and its child, without console errors', async () => {
    const page = await open(html);
    expect(Number(await page.getAttribute('#stats', 'data-frames'))).toBe(frames.length);
    expect(Number(await page.getAttribute('#stats', 'data-invalid'))).toBe(0);
    const lanes = await page.$$eval('.tl-labels [data-session]', (nodes) =>
      nodes.map((n) => (n as HTMLElement).dataset['session']),
    );
    expect(lanes).toEqual(['', 's1', 's1/child1']);
    await page.click('.tl-label[data-session="s1"]');
    expect(await page.textContent('#detail [data-testid="streamed-text"]')).toBe(
      lastAssistantText(frames, 's1'),
    );
  });
});

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('an interrupted turn recorded from the %s reference runtime', (_name, runtime) => {
  let html: string;
  let trace: string;
  let frames: TraceFrame[];
  beforeAll(async () => {
    trace = await recordInterruptedTrace(runtime);
    frames = framesOf(readTraceFile(trace));
    html = await viewTrace(trace);
  });

  test('the turn shows as ended aborted, and the interrupt as a request answered', async () => {
    const turnEnd = frames.find(
      (f) => (params(f)['event'] as { type?: string } | undefined)?.type === 'turn/end',
    )!;
    const { turn, reason } = (
      params(turnEnd)['event'] as { data: { turn: number; reason: { kind: string } } }
    ).data;
    expect(reason.kind).toBe('aborted');
    const page = await open(html);
    const turns = await page.$$eval('.tl-lane[data-session="s1"] .tl-span[data-kind="turn"]', (n) =>
      n.map((x) => x.className),
    );
    expect(turns).toHaveLength(1);
    expect(turns[0]).toContain('tl-other');
    expect(turns[0]).not.toContain('tl-ok');
    await page.click('.tl-label[data-session="s1"]');
    expect(await page.textContent('#detail h3')).toBe(`Turn ${turn} · aborted`);
    // The text streamed before the interrupt, and no more.
    const streamed = frames
      .filter(
        (f) => (params(f)['event'] as { type?: string } | undefined)?.type === 'assistant/chunk',
      )
      .map((f) => (params(f)['event'] as { data: { delta: { text: string } } }).data.delta.text);
    expect(streamed.length).toBeGreaterThan(0);
    expect(await page.textContent('#detail [data-testid="streamed-text"]')).toBe(streamed.join(''));

    const interrupt = frames.find((f) => f.kind === 'request' && f.method === 'session/interrupt')!;
    await page.click(`#list .vl-row[data-item="${frames.indexOf(interrupt)}"]`);
    expect(await fact(page, 'method')).toBe('session/interrupt');
    await page.click('#detail [data-fact="answered by"] button');
    const answer = frames.find((f) => f.request === interrupt.seq)!;
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`frame:${answer.seq}`);
    expect(JSON.parse((await page.textContent('[data-testid="frame-json"]'))!)).toEqual(
      answer.json,
    );
  });

  test('its lane marks the prompt, the interrupt and the close, the connection the exit, as the legend says', async () => {
    const page = await open(html);
    const marks = await page.$$eval('.tl-lane[data-session="s1"] .tl-mark', (nodes) =>
      nodes.map((n) => (n as HTMLElement).dataset['mark']),
    );
    expect(marks).toEqual(['prompt', 'interrupt', 'close']);
    expect(await page.getAttribute('.tl-label[data-session="s1"]', 'data-closed')).toBe('true');
    expect(await page.textContent('.tl-label[data-session="s1"] .tl-label-meta')).toBe(
      'closed · 1',
    );
    const exit = '.tl-lane[data-session=""] .tl-mark[data-mark="exit"]';
    expect(await page.getAttribute(exit, 'title')).toMatch(
      /^runtime exit · the runtime exited with code 0 · /,
    );
    // A mark is the frame it stands for: clicking it shows that request.
    const close = frames.find((f) => f.kind === 'request' && f.method === Method.sessionClose)!;
    await page.click('.tl-lane[data-session="s1"] .tl-mark[data-mark="close"]');
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`frame:${close.seq}`);

    // The legend names every kind of span and mark, drawn as the lanes draw them.
    const legend = await page.$$eval('.tl-legend .tl-legend-item', (nodes) =>
      nodes.map((n) => n.textContent),
    );
    expect(legend).toEqual([
      'turn completed',
      'turn aborted / other end',
      'turn failed',
      'turn running',
      'turn unfinished (the runtime exited)',
      'step',
      'tool call',
      'subagent',
      'request → response',
      'invalid frame',
      'prompt',
      'interrupt',
      'close',
      'runtime exit',
    ]);
    const colour = (selector: string): Promise<string> =>
      page.$eval(selector, (n) => getComputedStyle(n).backgroundColor);
    for (const [swatch, drawn] of [
      ['.sw-mark-prompt', '.tl-lane .tl-mark-prompt'],
      ['.sw-mark-interrupt', '.tl-lane .tl-mark-interrupt'],
      ['.sw-mark-close', '.tl-lane .tl-mark-close'],
      ['.sw-mark-exit', '.tl-lane .tl-mark-exit'],
      ['.sw-turn.sw-other', '.tl-lane .tl-turn.tl-other'],
      ['.sw-step', '.tl-lane .tl-step'],
      ['.sw-request.sw-ok', '.tl-lane .tl-request.tl-ok'],
    ]) {
      expect(await colour(swatch!), swatch).toBe(await colour(drawn!));
    }
  });

  test('the axis ticks at round times; zoom refines them, and fit shows the whole trace again', async () => {
    const page = await open(html);
    const axis = (): Promise<{ step: number; ticks: { ms: number; label: string }[] }> =>
      page.$eval('.tl-axis', (node) => ({
        step: Number((node as HTMLElement).dataset['step']),
        ticks: [...node.querySelectorAll<HTMLElement>('.tl-tick')].map((t) => ({
          ms: Number(t.dataset['ms']),
          label: t.textContent ?? '',
        })),
      }));
    const duration = Math.max(...readTraceFile(trace).map((r) => ('t' in r ? r.t : 0)));
    /** The time the track shows, from its scroll position. */
    const inView = (): Promise<{ start: number; end: number }> =>
      page.$eval(
        '.tl-tracks',
        (tracks, duration) => {
          const width = tracks.scrollWidth;
          return {
            start: (tracks.scrollLeft / width) * duration,
            end: ((tracks.scrollLeft + tracks.clientWidth) / width) * duration,
          };
        },
        duration,
      );
    // Ticks are every round step, from the view's start (or before) to its end (or after).
    const checkRound = async ({ step, ticks }: Awaited<ReturnType<typeof axis>>): Promise<void> => {
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
      expect(
        [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6),
        `step ${step}`,
      ).toBe(true);
      const view = await inView();
      expect(ticks[0]!.ms).toBeLessThanOrEqual(Math.max(view.start, 0) + 1e-6);
      expect(ticks.at(-1)!.ms).toBeGreaterThanOrEqual(Math.min(view.end, duration) - step);
      const first = Math.round(ticks[0]!.ms / step);
      ticks.forEach(({ ms, label }, i) => {
        expect(ms).toBeCloseTo((first + i) * step, 6);
        const [value, unit] = label.split(' ');
        expect(['ms', 's']).toContain(unit);
        expect(Number(value) * (unit === 's' ? 1000 : 1)).toBeCloseTo(ms, 6);
      });
    };
    const whole = await axis();
    await checkRound(whole);
    // The whole trace: every tick from 0 to its end.
    expect(whole.ticks.length).toBe(Math.floor(duration / whole.step + 1e-9) + 1);
    // About 8 ticks across the view.
    expect(whole.ticks.length).toBeGreaterThanOrEqual(4);
    expect(whole.ticks.length).toBeLessThanOrEqual(10);

    const widths = () =>
      page.evaluate(() => ({
        inner: document.querySelector('.tl-inner')!.getBoundingClientRect().width,
        tracks: document.querySelector('.tl-tracks')!.clientWidth,
        scrollLeft: document.querySelector('.tl-tracks')!.scrollLeft,
      }));
    await page.click('.tl-zoom button[data-zoom="1"]');
    await page.click('.tl-zoom button[data-zoom="1"]');
    const zoomed = await axis();
    await checkRound(zoomed);
    expect(zoomed.step).toBeLessThan(whole.step);
    expect((await widths()).inner).toBeGreaterThan((await widths()).tracks * 3.5);

    await page.click('.tl-zoom button[data-fit]');
    const fitted = await widths();
    expect(Math.abs(fitted.inner - fitted.tracks)).toBeLessThanOrEqual(1);
    expect(fitted.scrollLeft).toBe(0);
    expect(await axis()).toEqual(whole);
    // Everything drawn is in view: the exit, the last thing, included.
    const { right, last } = await page.evaluate(() => ({
      right: document.querySelector('.tl-tracks')!.getBoundingClientRect().right,
      last: Math.max(
        ...[...document.querySelectorAll('.tl-span, .tl-mark')].map(
          (n) => n.getBoundingClientRect().right,
        ),
      ),
    }));
    expect(last).toBeLessThanOrEqual(right + 1);
  });
});

/**
 * A trace whose last requests end with it, at times chosen so the failure cannot hide: a 100 ms
 * `session/prompt` ending 10 ms before the end, and a 1 ms `shutdown` (narrower than a span's
 * minimum width) answered at the very end. Recorded traces end this way only some of the time.
 */
function writeEndingTrace(): string {
  const request = (seq: number, t: number, id: number, method: string): TraceFrame => ({
    type: 'frame',
    seq,
    dir: 'clientToServer',
    t,
    line: id,
    bytes: 10,
    kind: 'request',
    method,
    id,
    json: { jsonrpc: '2.0', id, method, params: {} },
  });
  const response = (seq: number, t: number, id: number, of: TraceFrame): TraceFrame => ({
    type: 'frame',
    seq,
    dir: 'serverToClient',
    t,
    line: id,
    bytes: 10,
    kind: 'result',
    id,
    request: of.seq,
    latencyMs: t - of.t,
    json: { jsonrpc: '2.0', id, result: {} },
  });
  const initialize = request(0, 0, 1, Method.initialize);
  const prompt = request(2, 890, 2, Method.sessionPrompt);
  const shutdown = request(4, 999, 3, Method.shutdown);
  const records: TraceRecord[] = [
    {
      type: 'header',
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      protocolVersion: IDL_VERSION,
      startedAt: 1_700_000_000_000,
      recorder: 'viewer.browser.test.ts',
      maxFrameBytes: 1024,
      headBytes: 64,
    },
    initialize,
    response(1, 20, 1, initialize),
    prompt,
    response(3, 990, 2, prompt),
    shutdown,
    response(5, 1000, 3, shutdown),
  ];
  const trace = join(tempDir(), 'ending.trace.ndjson');
  writeFileSync(trace, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return trace;
}

describe('spans that end with the trace', () => {
  test('are as wide as their time (or the minimum width) and drawn inside the track', async () => {
    const page = await open(await viewTrace(writeEndingTrace()));
    const drawn = await page.$$eval('.tl-span[data-kind="request"]', (nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        const track = node.parentElement!.getBoundingClientRect();
        return { left: box.left, right: box.right, trackLeft: track.left, trackRight: track.right };
      }),
    );
    expect(drawn).toHaveLength(3);
    const [, prompt, shutdown] = drawn as [unknown, (typeof drawn)[0], (typeof drawn)[0]];
    const trackWidth = prompt.trackRight - prompt.trackLeft;
    // 100 ms of 1000: a tenth of the track, to within a pixel.
    expect(prompt.right - prompt.left).toBeCloseTo(trackWidth / 10, 0);
    expect(prompt.right).toBeLessThanOrEqual(prompt.trackRight - trackWidth / 100 + 1);
    // 1 ms is narrower than the minimum width: drawn 3 px wide, inside, within 3 px of its time.
    expect(shutdown.right - shutdown.left).toBeCloseTo(3, 0);
    expect(shutdown.right).toBeLessThanOrEqual(shutdown.trackRight + 0.5);
    expect(Math.abs(shutdown.left - (shutdown.trackLeft + 0.999 * trackWidth))).toBeLessThan(3);
  });
});

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('a session closed and prompted again, recorded from the %s runtime', (_name, runtime) => {
  test('shows each life of the id as a session of its own', async () => {
    const page = await open(await viewTrace(await recordReopenedTrace(runtime)));
    const lanes = await page.$$eval('.tl-labels [data-lane]', (nodes) =>
      nodes.map((n) => [
        (n as HTMLElement).dataset['lane'],
        n.querySelector('.tl-label-name')?.textContent,
        n.querySelector('.tl-label-meta')?.textContent,
      ]),
    );
    // The child of each life is a life of its own too, nested under its parent's.
    expect(lanes).toEqual([
      ['', 'connection', ''],
      ['s1', 's1', 'closed · 2'],
      ['s1/child1', 's1/child1', 'closed · 1'],
      ['s1#2', 's1 · life 2', '1 turn'],
      ['s1/child1#2', 's1/child1 · life 2', '1 turn'],
    ]);
    expect(await page.textContent('#stats')).toContain('4 sessions');
    const replies = (): Promise<string[]> =>
      page.$$eval('#detail [data-testid="streamed-text"]', (n) =>
        n.map((x) => x.textContent ?? ''),
      );
    await page.click('.tl-label[data-lane="s1"]');
    expect(await page.textContent('#detail [data-fact="children"] dd')).toBe('s1/child1');
    const first = await replies();
    expect(first).toHaveLength(2);
    expect(first[1]).toBe('Echo: second');
    await page.click('.tl-label[data-lane="s1#2"]');
    expect(await replies()).toHaveLength(1);
    expect(await page.textContent('#detail [data-fact="children"] dd')).toBe('s1/child1 · life 2');
    await page.click('.tl-label[data-lane="s1/child1#2"]');
    expect(await page.textContent('#detail [data-fact="parent"] dd')).toBe('s1 · life 2');
    expect(await replies()).toEqual(['Echo: third']);
    // The second life's prompt answer and events are its own, in the list too.
    await page.selectOption('#filter-session', 's1#2');
    expect(await visibleCells(page, 'method')).toContain('result #5 session/prompt');
    expect(await visibleCells(page, 'method')).not.toContain('result #2 session/prompt');
  });
});

describe('overlapping requests', () => {
  test('stack in sub-rows of the connection lane, each in view', async () => {
    const trace = await recordOverlappingTrace(TS_RUNTIME);
    const frames = framesOf(readTraceFile(trace));
    const requests = frames.filter((f) => f.kind === 'request');
    // Recorded as overlapping: the six were all sent before the first was answered.
    const firstAnswer = Math.min(...frames.filter((f) => f.kind !== 'request').map((f) => f.t));
    expect(requests.filter((f) => f.t < firstAnswer)).toHaveLength(6);
    const page = await open(await viewTrace(trace));
    const lane = (await page.$eval('.tl-lane[data-session=""]', (n) =>
      n.getBoundingClientRect().toJSON(),
    )) as DOMRect;
    const label = (await page.$eval('.tl-label[data-lane=""]', (n) =>
      n.getBoundingClientRect().toJSON(),
    )) as DOMRect;
    const spans = await page.$$eval('.tl-lane[data-session=""] .tl-request', (nodes) =>
      nodes.map((n) => n.getBoundingClientRect().toJSON() as DOMRect),
    );
    expect(spans).toHaveLength(7);
    const overlapping = spans.slice(0, 6);
    // Each drawn inside its lane, none over another: six rows, the lane (and its label) as tall.
    for (const box of spans) {
      expect(box.width).toBeGreaterThan(0);
      expect(box.top).toBeGreaterThanOrEqual(lane.top);
      expect(box.bottom).toBeLessThanOrEqual(lane.bottom);
    }
    overlapping.forEach((a, i) =>
      overlapping.slice(i + 1).forEach((b) => {
        expect(a.bottom <= b.top || b.bottom <= a.top, `${i}`).toBe(true);
      }),
    );
    expect(new Set(overlapping.map((b) => b.top)).size).toBe(6);
    expect(label.height).toBe(lane.height);
    // The shutdown, once the six are answered, takes the first row again.
    expect(spans[6]!.top).toBe(overlapping[0]!.top);
  });
});

describe('invalid frames', () => {
  let html: string;
  let frames: TraceFrame[];
  beforeAll(async () => {
    const trace = await recordInvalidTrace(TS_RUNTIME);
    frames = framesOf(readTraceFile(trace));
    html = await viewTrace(trace);
  });

  test('are marked in the list and on the timeline, with their violations in the detail', async () => {
    const page = await open(html);
    const invalid = frames.filter((f) => (f.findings ?? []).length > 0);
    expect(invalid.map((f) => f.findings!.map((x) => x.reason))).toEqual([
      ['invalid-params'],
      ['invalid-json'],
      ['invalid-json'],
      ['invalid-params'],
    ]);
    expect(Number(await page.getAttribute('#stats', 'data-invalid'))).toBe(invalid.length);
    expect(
      await page.$$eval('#list .vl-row.invalid .c-seq', (n) => n.map((x) => Number(x.textContent))),
    ).toEqual(invalid.map((f) => f.seq));
    expect(await page.locator('.tl-invalid').count()).toBeGreaterThan(0);

    await page.click(`#list .vl-row[data-item="${frames.indexOf(invalid[0]!)}"]`);
    expect(await page.textContent('#detail .finding strong')).toBe('invalid-params');
    expect(await page.getAttribute('#detail .violations li', 'data-pointer')).toBe('/maxTokens');

    await page.click(`#list .vl-row[data-item="${frames.indexOf(invalid[1]!)}"]`);
    expect(await page.textContent('#detail .finding strong')).toBe('invalid-json');
    expect(await page.textContent('#detail pre.json')).toBe('this is not json');

    // A line holding </script> shows as text: the page embedded it without ending its script.
    await page.click(`#list .vl-row[data-item="${frames.indexOf(invalid[2]!)}"]`);
    expect(await page.textContent('#detail pre.json')).toBe(
      '</script><script>document.title = "escaped"</script>',
    );
    expect(await page.title()).not.toBe('escaped');

    await page.check('#filter-invalid');
    expect(await shown(page)).toBe(invalid.length);
    await page.click('.tl-invalid');
    expect(await page.getAttribute('#detail', 'data-showing')).toMatch(/^frame:/);
  });
});

describe('a 100,000-frame burst', () => {
  let html: string;
  let frameCount: number;
  beforeAll(async () => {
    const trace = await recordBurstTrace(TS_RUNTIME, 10, 10_000);
    frameCount = framesOf(readTraceFile(trace)).length;
    html = await viewTrace(trace);
  });

  test('opens, renders only the rows in view, and scrolls to the end', async () => {
    expect(frameCount).toBeGreaterThanOrEqual(100_000);
    const page = await open(html);
    expect(Number(await page.getAttribute('#stats', 'data-frames'))).toBe(frameCount);
    const firstRender = await page.evaluate(() => {
      const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
      return { parsed: mark('dsh:parsed'), firstRender: mark('dsh:first-render') };
    });
    // Scroll through the whole list, a screenful and a half per frame, timing each frame.
    const scroll = await page.evaluate(async () => {
      const list = document.getElementById('list')!;
      const stats = (
        window as unknown as {
          dshViewer: { renderStats: { count: number; totalMs: number; maxMs: number } };
        }
      ).dshViewer.renderStats;
      Object.assign(stats, { count: 0, totalMs: 0, maxMs: 0 });
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries()) longTasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });
      const frames: number[] = [];
      let last = performance.now();
      const step = list.clientHeight * 1.5;
      while (list.scrollTop + list.clientHeight < list.scrollHeight - 1) {
        list.scrollTop += step;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = performance.now();
        frames.push(now - last);
        last = now;
        if (frames.length >= 240) break;
      }
      observer.disconnect();
      frames.sort((a, b) => a - b);
      const at = (q: number) => frames[Math.min(frames.length - 1, Math.floor(q * frames.length))]!;
      return {
        frames: frames.length,
        median: at(0.5),
        p95: at(0.95),
        max: frames.at(-1)!,
        longTasks,
        renderMean: stats.totalMs / stats.count,
        renderMax: stats.maxMs,
      };
    });
    console.log(
      `100k-frame viewer: ${frameCount} frames, parsed at ${firstRender.parsed.toFixed(0)} ms, first render at ${firstRender.firstRender.toFixed(0)} ms after navigation start; ` +
        `scroll: ${scroll.frames} frames, frame time median ${scroll.median.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms, long tasks ${scroll.longTasks.length}; ` +
        `rows rendered in ${scroll.renderMean.toFixed(2)} ms on average (max ${scroll.renderMax.toFixed(1)} ms); load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    );
    expect(await page.locator('#list .vl-row').count()).toBeLessThan(150);
    // Jump to the end: the last frame is there.
    await page.$eval('#list', (list) => (list.scrollTop = list.scrollHeight));
    await page.waitForFunction(
      (last) =>
        [...document.querySelectorAll('#list .vl-row:not([hidden]) .c-seq')].some(
          (n) => n.textContent === last,
        ),
      String(frameCount - 1),
    );
    // Search across every frame.
    await page.fill('#search', '"sessionid":"burst-7"');
    await page.waitForFunction(
      () =>
        document.querySelector('#stats')?.getAttribute('data-shown') !== String(0) &&
        document.querySelector('#stats')?.getAttribute('data-shown') !==
          document.querySelector('#stats')?.getAttribute('data-frames'),
    );
    const sessions = await visibleCells(page, 'session');
    expect(sessions.length).toBeGreaterThan(10);
    expect(new Set(sessions)).toEqual(new Set(['burst-7']));
  });
});
