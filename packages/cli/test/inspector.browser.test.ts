// dsh-sdk inspect against both reference runtimes, in a real headless Chromium: the token guard,
// then a person's session: type a prompt, watch the reply stream in, send an image to the same
// session, and check what the page shows element by element. A console error fails the test.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Method } from '@dsh-sdk/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorsOf, launchBrowser } from './helpers/browser.js';
import type { TestBrowser } from './helpers/browser.js';
import {
  DSH_SDK,
  framesOf,
  PY_RUNTIME,
  readTraceFile,
  tempDir,
  TS_RUNTIME,
} from './helpers/cli.js';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface Started {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly trace: string;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
}

async function startInspector(
  runtime: string,
  route = ['--provider', 'echo', '--model', 'echo-1'],
  runtimeArgs: readonly string[] = [],
): Promise<Started> {
  const trace = join(tempDir(), 'inspect.trace.ndjson');
  const child = spawn(
    DSH_SDK,
    ['inspect', ...route, '--out', trace, '--', runtime, ...runtimeArgs],
    // Slow chunks, so the test sees the reply arrive piece by piece.
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '100' },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('close', () => reject(new Error(`inspect exited early: ${stderr}`)));
  });
  return { child, url: new URL(firstLine), trace, exited };
}

function get(url: URL, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits until the prompt log shows exactly `line`. */
async function logged(page: Page, line: string): Promise<void> {
  await page.locator('#prompt-log li', { hasText: line }).first().waitFor();
  expect(await page.locator('#prompt-log li', { hasText: line }).first().textContent()).toBe(line);
}

/** Records every distinct text the session's streamed-text element shows, from now on. */
async function watchStreamedText(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    const detail = document.getElementById('detail')!;
    new MutationObserver(() => {
      const texts = [...detail.querySelectorAll('[data-testid="streamed-text"]')].map(
        (n) => n.textContent ?? '',
      );
      const last = texts.at(-1);
      if (last !== undefined && seen.at(-1) !== last) seen.push(last);
    }).observe(detail, { subtree: true, childList: true, characterData: true });
  });
}

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('dsh-sdk inspect against the %s reference runtime', (_name, runtime) => {
  let browser: TestBrowser;
  let inspector: Started;
  beforeAll(async () => {
    [browser, inspector] = await Promise.all([launchBrowser(), startInspector(runtime)]);
  });
  afterAll(async () => {
    inspector?.child.kill('SIGTERM');
    await browser?.close();
  });

  test('serves 127.0.0.1 only to requests carrying its token and naming the loopback host', async () => {
    const { url } = inspector;
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[\w-]{32}$/);
    expect(await get(url)).toBe(200);
    const events = new URL('/state', url);
    expect(await get(events)).toBe(403);
    events.searchParams.set('token', 'x'.repeat(32));
    expect(await get(events)).toBe(403);
    events.searchParams.set('token', url.searchParams.get('token')!);
    expect(await get(events)).toBe(200);
    expect(await get(events, `evil.example:${url.port}`)).toBe(403);
  });

  test('a prompt typed in the page streams its reply into the timeline, then an image follows', async () => {
    const page = await browser.newPage();
    await page.goto(inspector.url.href);
    await page.waitForSelector('#live-status[data-state="ready"]');
    expect(await page.textContent('#live-status')).toContain('deepseek-harness-sdk-runtime');
    expect(await page.isVisible('#prompt-form')).toBe(true);
    expect(await page.isHidden('#init-form')).toBe(true);
    // The handshake is already in the timeline: initialize and its answer, on the connection lane.
    await page.waitForFunction(
      () => document.querySelector('#stats')?.getAttribute('data-frames') === '2',
    );
    expect(
      await page.$$eval('#list .vl-row:not([hidden]) .c-method', (n) =>
        n.map((x) => x.textContent),
      ),
    ).toEqual(['initialize #1', 'result #1 initialize']);
    // The runtime reported both capabilities of version 2: a button each, off for a new session.
    expect(
      await page.$$eval('#session-actions button', (n) => n.map((b) => b.textContent)),
    ).toEqual(['Interrupt', 'Close']);
    expect(await page.isDisabled('#session-actions button[data-action="interrupt"]')).toBe(true);

    // A new session, picked by default, with a suggested id.
    expect(await page.inputValue('#prompt-session')).toBe('');
    const sessionId = await page.inputValue('#prompt-new-session');
    expect(sessionId).toBe('session-1');
    const text =
      'hello from the inspector: please stream this reply back to me in a dozen pieces or so, slowly';
    await page.fill('#prompt-text', text);
    await watchStreamedText(page);
    await page.click('#prompt-send');
    // The detail pane follows the prompted session; its lane appears with the first frames.
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`session:${sessionId}`);
    await page.waitForSelector(`.tl-label[data-session="${sessionId}"]`);
    const reply = `Echo: ${text}`;
    await page.waitForFunction(
      (expected) =>
        document.querySelector('#detail [data-testid="streamed-text"]')?.textContent === expected,
      reply,
      { timeout: 20_000 },
    );
    const seen = await page.evaluate(
      () => (window as unknown as { seenTexts: string[] }).seenTexts,
    );
    // It grew piece by piece: proper prefixes of the reply were on screen before the whole (on a
    // loaded machine the browser may draw several chunks at once, so one prefix is the floor).
    const partial = seen.filter((t) => t !== reply);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const t of partial) expect(reply.startsWith(t)).toBe(true);
    expect(await page.textContent('#prompt-log li')).toBe(
      `${sessionId}: {"messageId":"${sessionId}/m1"}`,
    );
    await page.waitForSelector(`#detail .turn[data-turn="0"] h3:text("Turn 0 · completed")`);

    // The session picker now offers it; an image goes to the same session.
    await page.selectOption('#prompt-session', sessionId);
    expect(await page.isHidden('#prompt-new-session')).toBe(true);
    await page.fill('#prompt-text', 'and this picture');
    await page.setInputFiles('#prompt-image', {
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.click('#prompt-send');
    await page.waitForSelector(`#detail .turn[data-turn="1"] h3:text("Turn 1 · completed")`, {
      timeout: 20_000,
    });
    const second = await page.textContent(
      '#detail .turn[data-turn="1"] [data-testid="streamed-text"]',
    );
    expect(second).toMatch(
      new RegExp(
        `^Echo: and this picture\\n\\[image image/png, ${PNG.length} bytes, sha256-[0-9a-f]{64}\\]$`,
      ),
    );
    expect(
      await page.$$eval(`.tl-lane[data-session="${sessionId}"] .tl-turn.tl-ok`, (n) => n.length),
    ).toBe(2);

    // The list shows every frame recorded so far, and the prompts' frames carry what was sent.
    await page.selectOption('#filter-method', Method.sessionPrompt);
    expect(
      await page.$$eval('#list .vl-row:not([hidden]) .c-method', (n) =>
        n.map((x) => x.textContent),
      ),
    ).toEqual([
      'session/prompt #2',
      'result #2 session/prompt',
      'session/prompt #3',
      'result #3 session/prompt',
    ]);
    await page.click('#list .vl-row[data-position="2"]');
    const sent = JSON.parse((await page.textContent('[data-testid="frame-json"]'))!) as {
      params: { contentBlocks: { type: string; data?: string; mimeType?: string }[] };
    };
    expect(sent.params.contentBlocks).toEqual([
      { type: 'text', text: 'and this picture' },
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ]);
    const shownFrames = Number(await page.getAttribute('#stats', 'data-frames'));
    expect(errorsOf(page)).toEqual([]);
    await page.close();

    // Stopping shuts the runtime down; the trace file holds what the page showed, and more.
    inspector.child.kill('SIGTERM');
    const { code } = await inspector.exited;
    expect(code).toBe(0);
    const records = readTraceFile(inspector.trace);
    const frames = framesOf(records);
    expect(frames.length).toBeGreaterThanOrEqual(shownFrames);
    expect(frames.flatMap((f) => f.findings ?? [])).toEqual([]);
    expect(frames.at(-1)).toMatchObject({ kind: 'result', method: Method.shutdown });
    expect(records.at(-1)).toMatchObject({ type: 'exit', exitCode: 0 });
  });
});

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('the inspector session actions against the %s runtime', (_name, runtime) => {
  let browser: TestBrowser;
  let inspector: Started;
  beforeAll(async () => {
    [browser, inspector] = await Promise.all([launchBrowser(), startInspector(runtime)]);
  });
  afterAll(async () => {
    inspector?.child.kill('SIGTERM');
    await browser?.close();
  });

  test('Interrupt stops a paced turn, Close disposes the session, again finds nothing', async () => {
    const page = await browser.newPage();
    await page.goto(inspector.url.href);
    await page.waitForSelector('#live-status[data-state="ready"]');
    const sessionId = await page.inputValue('#prompt-new-session');
    // 50 ms before each of some 40 pieces: seconds of streaming, stopped after the first ones.
    await page.fill('#prompt-text', `stream this slowly: ${'many words, '.repeat(50)}`);
    await page.click('#prompt-send');
    await page.waitForFunction(
      () =>
        (document.querySelector('#detail [data-testid="streamed-text"]')?.textContent ?? '') !== '',
    );
    await page.selectOption('#prompt-session', sessionId);
    await page.click('#session-actions button[data-action="interrupt"]');
    await logged(page, `${sessionId}: {"found":true,"wasRunning":true}`);
    await page.waitForSelector(`#detail .turn[data-turn="0"] h3:text("Turn 0 · aborted")`);
    const streamed = await page.textContent(
      '#detail .turn[data-turn="0"] [data-testid="streamed-text"]',
    );
    expect(streamed!.length).toBeLessThan(
      `Echo: stream this slowly: ${'many words, '.repeat(50)}`.length,
    );
    await page.click('#session-actions button[data-action="close"]');
    await logged(page, `${sessionId}: {"found":true}`);
    await page.click('#session-actions button[data-action="close"]');
    await logged(page, `${sessionId}: {"found":false}`);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  test('a version 1 runtime reports no capabilities: no buttons', async () => {
    const old = await startInspector(runtime, undefined, ['--protocol-version', '1']);
    try {
      const page = await browser.newPage();
      await page.goto(old.url.href);
      await page.waitForSelector('#live-status[data-state="ready"]');
      expect(await page.locator('#session-actions button').count()).toBe(0);
      expect(errorsOf(page)).toEqual([]);
      await page.close();
    } finally {
      old.child.kill('SIGTERM');
      await old.exited;
    }
  });
});

describe('dsh-sdk inspect without a route', () => {
  test('the page asks for the initialize params, and a refused route is shown', async () => {
    const [browser, inspector] = await Promise.all([
      launchBrowser(),
      startInspector(TS_RUNTIME, []),
    ]);
    try {
      const page = await browser.newPage();
      await page.goto(inspector.url.href);
      await page.waitForSelector('#live-status[data-state="started"]');
      expect(await page.isVisible('#init-form')).toBe(true);
      expect(await page.isHidden('#prompt-form')).toBe(true);
      expect(await page.inputValue('#init-cwd')).not.toBe('');
      await page.fill('#init-provider', 'echo');
      await page.fill('#init-model', 'no-such-model');
      await page.click('#init-send');
      await page.waitForFunction(() =>
        document.querySelector('#live-error')?.textContent?.includes('/model'),
      );
      await page.fill('#init-model', 'echo-1');
      await page.click('#init-send');
      await page.waitForSelector('#live-status[data-state="ready"]');
      expect(await page.isVisible('#prompt-form')).toBe(true);
      expect(await page.textContent('#live-error')).toBe('');
      // Both handshakes are in the timeline: the refused one marked as an error on the connection lane.
      await page.waitForFunction(
        () => document.querySelector('#stats')?.getAttribute('data-frames') === '4',
      );
      expect(
        await page.$$eval('.tl-lane[data-session=""] .tl-request', (n) =>
          n.map((x) => x.className),
        ),
      ).toEqual(['tl-span tl-request tl-error', 'tl-span tl-request tl-ok']);
      expect(errorsOf(page)).toEqual([]);
      await page.close();
    } finally {
      inspector.child.kill('SIGTERM');
      await inspector.exited;
      await browser.close();
    }
  });
});
