// dsh-sdk inspect against both reference runtimes, in a real headless Chromium: the token guard,
// then a person's session: type a prompt, watch the reply stream in, send an image to the same
// session, interrupt and close the session just prompted, download the trace, and check what the
// page shows element by element. Then runtimes that fail: a command that does not exist (and a
// restart that cannot start it either), one killed by a signal, and one that dies mid-turn and is
// restarted, its first run kept to view and download. A console error fails the test.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Method } from '@dsh-sdk/protocol';
import type { TraceRecord } from '@dsh-sdk/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { errorsOf, launchBrowser } from './helpers/browser.js';
import {
  FIXTURES,
  framesOf,
  PY_RUNTIME,
  readTraceFile,
  tempDir,
  TS_RUNTIME,
} from './helpers/cli.js';
import {
  get,
  inspectorPerTest,
  lastFrameInView,
  logged,
  openReady,
  sharedInspector,
  startInspector,
  stopInspector,
  watchStreamedText,
} from './helpers/inspector.js';
import type { Started } from './helpers/inspector.js';
import { budgetMs } from './helpers/time-budget.js';

/** A runtime that answers initialize, then dies (exit 3) on a prompt saying "crash". */
const DIES_MID_TURN = join(FIXTURES, 'dies-mid-turn.mjs');

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('dsh-sdk inspect against the %s reference runtime', (_name, runtime) => {
  const shared = sharedInspector(runtime);

  test('serves 127.0.0.1 only to requests carrying its token and naming the loopback host', async () => {
    const { url } = shared.inspector();
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
    const page = await shared.open();
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
      { timeout: budgetMs(20_000) },
    );
    const seen = await page.evaluate(
      () => (window as unknown as { seenTexts: string[] }).seenTexts,
    );
    // It grew piece by piece: proper prefixes of the reply were on screen before the whole (on a
    // loaded machine the browser may draw several chunks at once, so one prefix is the floor).
    const partial = seen.filter((t) => t !== reply);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const t of partial) expect(reply.startsWith(t)).toBe(true);
    // The log names the action with its answer.
    expect(await page.textContent('#prompt-log li')).toBe(
      `${sessionId} · prompt → {"messageId":"${sessionId}/m1"}`,
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
      timeout: budgetMs(20_000),
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

    // The frame list followed the frames as they came.
    await lastFrameInView(page);

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
    shared.inspector().child.kill('SIGTERM');
    const { code } = await shared.inspector().exited;
    expect(code).toBe(0);
    const records = readTraceFile(shared.inspector().trace);
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
  const shared = sharedInspector(runtime);

  test('Interrupt and Close reach the session just prompted; its lane marks both; the trace downloads', async () => {
    const page = await shared.open();
    const sessionId = await page.inputValue('#prompt-new-session');
    // 100 ms before each of some 400 pieces: 40 s of streaming, far longer than a loaded machine
    // takes to click Interrupt after the first piece (4 s was not: the turn ended first).
    const text = `stream this slowly: ${'many words, '.repeat(500)}`;
    await page.fill('#prompt-text', text);
    await page.click('#prompt-send');
    // The prompted session is the picked one at once: no picking it by hand to stop it.
    expect(await page.inputValue('#prompt-session')).toBe(sessionId);
    expect(await page.isHidden('#prompt-new-session')).toBe(true);
    await page.waitForFunction(
      () =>
        (document.querySelector('#detail [data-testid="streamed-text"]')?.textContent ?? '') !== '',
    );
    // The reply streams under its prompt.
    expect(
      await page.$$eval('#detail .turn[data-turn="0"] pre', (n) =>
        n.map((x) => x.getAttribute('data-testid')),
      ),
    ).toEqual(['turn-prompt', 'streamed-text']);
    expect(await page.textContent('#detail [data-testid="turn-prompt"]')).toBe(text);
    await page.click('#session-actions button[data-action="interrupt"]');
    await logged(page, `${sessionId} · interrupt → {"found":true,"wasRunning":true}`);
    await page.waitForSelector(`#detail .turn[data-turn="0"] h3:text("Turn 0 · aborted")`);
    const streamed = await page.textContent(
      '#detail .turn[data-turn="0"] [data-testid="streamed-text"]',
    );
    expect(streamed!.length).toBeLessThan(`Echo: ${text}`.length);
    const lane = `.tl-lane[data-session="${sessionId}"]`;
    await page.waitForSelector(`${lane} .tl-turn.tl-other`);
    const marks = (): Promise<(string | undefined)[]> =>
      page.$$eval(`${lane} .tl-mark`, (n) => n.map((x) => (x as HTMLElement).dataset['mark']));
    expect(await marks()).toEqual(['prompt', 'interrupt']);

    await page.click('#session-actions button[data-action="close"]');
    await logged(page, `${sessionId} · close → {"found":true}`);
    // Closed: marked on its lane and its label; the picker moved on to a new session, and lists
    // the closed one as over (it cannot be picked), so Interrupt and Close are off.
    await page.waitForSelector(`.tl-label[data-session="${sessionId}"][data-closed="true"]`);
    expect(await marks()).toEqual(['prompt', 'interrupt', 'close']);
    expect(await page.inputValue('#prompt-session')).toBe('');
    expect(await page.isVisible('#prompt-new-session')).toBe(true);
    expect(await page.inputValue('#prompt-new-session')).not.toBe(sessionId);
    const closedOption = `#prompt-session option[value="${sessionId}"][data-closed="true"]`;
    expect(await page.textContent(closedOption)).toBe(`${sessionId} (closed)`);
    expect(await page.$eval(closedOption, (o) => (o as HTMLOptionElement).disabled)).toBe(true);
    expect(await page.isDisabled('#session-actions button[data-action="close"]')).toBe(true);
    expect(await page.isDisabled('#session-actions button[data-action="interrupt"]')).toBe(true);

    // The trace downloads from the page: what the page shows, as NDJSON, named after the
    // runtime's command and when it started.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#trace-download'),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^${basename(runtime)}-\\d{8}-\\d{6}\\.trace\\.ndjson$`),
    );
    const records = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceRecord);
    expect(records[0]).toMatchObject({ type: 'header', recorder: 'dsh-sdk inspect' });
    const frames = framesOf(records);
    // The page has every frame of the file, and no other (the last may still be on its way).
    await page.waitForSelector(`#stats[data-frames="${frames.length}"]`);
    expect(
      frames
        .filter((f) => f.kind === 'request' && f.method?.startsWith('session/'))
        .map((f) => f.method),
    ).toEqual([Method.sessionPrompt, Method.sessionInterrupt, Method.sessionClose]);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  test('a version 1 runtime reports no capabilities: no buttons', async () => {
    const old = await startInspector(runtime, undefined, ['--protocol-version', '1']);
    try {
      const page = await shared.browser().newPage();
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

describe('a runtime that fails', () => {
  const inspectors = inspectorPerTest();

  test('a command that does not exist: the page and the terminal say ENOENT, nothing can be sent', async () => {
    const missing = join(tempDir(), 'no-such-runtime');
    const inspector = await inspectors.start(missing);
    // The terminal says so at once, not only the page.
    await inspector.printed(`dsh-sdk inspect: cannot start ${missing}: spawn ${missing} ENOENT\n`);
    const page = await inspectors.browser().newPage();
    await page.goto(inspector.url.href);
    await page.waitForSelector('#runtime-banner:not([hidden])');
    expect(await page.textContent('#runtime-banner-title')).toBe(
      `The runtime (${missing}) could not be started: spawn ${missing} ENOENT. Restart it to go on.`,
    );
    expect(await page.getAttribute('#runtime-banner', 'data-spawn-error')).toBe(
      `spawn ${missing} ENOENT`,
    );
    expect(await page.getAttribute('#live-status', 'data-state')).toBe('exited');
    expect(await page.textContent('#live-status')).toContain('not started');
    // The handshake never happened: its form stays, with its button off; no error of its own.
    expect(await page.isVisible('#init-form')).toBe(true);
    expect(await page.isDisabled('#init-send')).toBe(true);
    expect(await page.textContent('#live-error')).toBe('');
    expect(await page.isVisible('#runtime-restart')).toBe(true);
    // It has no exit status to show, and says what happened instead.
    expect(await page.textContent('#stats')).toContain('not started');
    expect(await page.textContent('#stats')).not.toContain('exit ?');
    expect(
      await page.getAttribute('.tl-lane[data-session=""] .tl-mark[data-mark="exit"]', 'title'),
    ).toMatch(
      new RegExp(`^runtime exit · the runtime could not be started: spawn ${missing} ENOENT · `),
    );

    // A restart tries again: the terminal says it cannot start it, and claims no restart of a
    // process that never was; the page lists the first try.
    await page.click('#runtime-restart');
    await page.waitForSelector('#earlier-runs li[data-run="1"]');
    const terminal = await inspector.printed(
      `dsh-sdk inspect: cannot start ${missing}: spawn ${missing} ENOENT\n`,
      2,
    );
    expect(terminal).not.toMatch(/restarted|pid none/);
    expect(await page.textContent('#earlier-runs li[data-run="1"]')).toContain(
      `run 1 could not be started: spawn ${missing} ENOENT`,
    );
    expect(await page.textContent('#live-status')).toContain('not started');
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  /** The inspector on the dies-mid-turn fixture, and a page on it once the runtime is ready. */
  async function openOnDiesMidTurn(): Promise<{ page: Page; command: string; started: Started }> {
    const started = await inspectors.start(process.execPath, undefined, [DIES_MID_TURN]);
    const page = await openReady(inspectors.browser(), started);
    return { page, command: `${process.execPath} ${DIES_MID_TURN}`, started };
  }

  test('a runtime killed by a signal: the banner and the terminal name the signal', async () => {
    const { page, command, started } = await openOnDiesMidTurn();
    await page.fill('#prompt-text', 'segfault now');
    await page.click('#prompt-send');
    await page.waitForSelector('#runtime-banner:not([hidden])');
    expect(await page.getAttribute('#runtime-banner', 'data-signal')).toBe('SIGSEGV');
    expect(await page.getAttribute('#runtime-banner', 'data-exit-code')).toBe('');
    expect(await page.textContent('#runtime-banner-title')).toBe(
      `The runtime (${command}) was killed by SIGSEGV. Restart it to go on.`,
    );
    await page.waitForSelector('#stderr-pane[data-lines="2"]');
    expect(await page.textContent('#runtime-banner-tail')).toMatch(
      /\ndies-mid-turn: about to die of a signal$/,
    );
    expect(await page.isDisabled('#prompt-send')).toBe(true);
    expect(await page.isVisible('#runtime-restart')).toBe(true);
    const terminal = await started.printed('dsh-sdk inspect: the runtime was killed by SIGSEGV\n');
    expect(terminal).toContain('dies-mid-turn: about to die of a signal\n');
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  test('a runtime that dies mid-turn: exit code and stderr shown, Send off; restart brings a fresh one', async () => {
    const { page, command, started } = await openOnDiesMidTurn();
    expect(await page.isHidden('#runtime-banner')).toBe(true);
    const firstPid = (await page.getAttribute('#live-status', 'data-pid'))!;
    expect(firstPid).toMatch(/^\d+$/);
    // Its stderr shows in the pane as it comes.
    await page.waitForSelector('#stderr-pane[data-lines="1"]');
    const sessionId = await page.inputValue('#prompt-new-session');
    await page.fill('#prompt-text', `please crash ${'after these words, '.repeat(20)}`);
    await page.click('#prompt-send');

    await page.waitForSelector('#runtime-banner:not([hidden])');
    expect(await page.getAttribute('#runtime-banner', 'data-exit-code')).toBe('3');
    expect(await page.textContent('#runtime-banner-title')).toBe(
      `The runtime (${command}) exited with code 3. Restart it to go on.`,
    );
    const stderr = [
      `dies-mid-turn: started, pid ${firstPid}`,
      'dies-mid-turn: working on the prompt',
      'fatal: the fixture runtime dies mid-turn',
    ];
    await page.waitForSelector('#stderr-pane[data-lines="3"]');
    expect(await page.textContent('#runtime-banner-tail')).toBe(stderr.join('\n'));
    await page.click('#stderr-pane summary');
    expect(await page.isVisible('#stderr-text')).toBe(true);
    expect(await page.textContent('#stderr-text')).toBe(`${stderr.join('\n')}\n`);
    // Nothing more can be sent to it.
    expect(await page.isDisabled('#prompt-send')).toBe(true);
    expect(await page.isDisabled('#session-actions button[data-action="interrupt"]')).toBe(true);
    // The timeline: the turn left open, the exit marked; the terminal has both the runtime's
    // stderr and how it ended.
    await page.waitForSelector('.tl-lane[data-session=""] .tl-mark[data-mark="exit"]');
    expect(
      await page.getAttribute('.tl-lane[data-session=""] .tl-mark[data-mark="exit"]', 'title'),
    ).toMatch(/^runtime exit · the runtime exited with code 3 · /);
    expect(
      await page.$$eval(`.tl-lane[data-session="${sessionId}"] .tl-turn`, (n) =>
        n.map((x) => x.className),
      ),
    ).toEqual(['tl-span tl-turn tl-unfinished']);
    expect(await page.textContent('#stats')).toContain('exit 3');
    await page.waitForSelector(
      `#detail .turn[data-turn="0"] h3:text("Turn 0 · unfinished (the runtime exited)")`,
    );
    // The banner took room from the frame list, which still shows its last frame.
    await lastFrameInView(page);
    const terminal = await started.printed('dsh-sdk inspect: the runtime exited with code 3\n');
    expect(terminal).toContain('fatal: the fixture runtime dies mid-turn\n');

    // Restart: the page comes back onto a fresh process, initialized again, and Send works.
    await page.click('#runtime-restart');
    await page.waitForFunction((pid) => {
      const status = document.querySelector('#live-status');
      return (
        status?.getAttribute('data-state') === 'ready' && status.getAttribute('data-pid') !== pid
      );
    }, firstPid);
    expect(await page.isHidden('#runtime-banner')).toBe(true);
    expect(await page.isEnabled('#prompt-send')).toBe(true);
    // The new process's trace only: its handshake.
    await page.waitForSelector('#stats[data-frames="2"]');
    expect(await page.locator('.tl-lane[data-session=""] .tl-mark[data-mark="exit"]').count()).toBe(
      0,
    );
    await page.fill('#prompt-text', 'hello again');
    await page.click('#prompt-send');
    await logged(page, `${sessionId} · prompt → {"messageId":"${sessionId}/m1"}`);
    await page.waitForSelector(`#detail .turn[data-turn="0"] h3:text("Turn 0 · completed")`);
    expect(await page.textContent('#detail [data-testid="streamed-text"]')).toBe(
      'Echo: hello again',
    );
    const secondPid = (await page.getAttribute('#live-status', 'data-pid'))!;
    const secondTrace = started.trace.replace(/\.ndjson$/, '-2.ndjson');
    await started.printed(
      `dsh-sdk inspect: restarted the runtime (run 2, pid ${secondPid}), recording to ${secondTrace}\n`,
    );
    // The earlier run is kept: named with its trace's file, to view or download.
    expect(await page.getAttribute('#trace-file', 'data-path')).toBe(secondTrace);
    expect(await page.textContent('#trace-file')).toBe(`run 2 · trace: ${secondTrace}`);
    const earlier = '#earlier-runs li[data-run="1"]';
    expect(await page.textContent(earlier)).toBe(
      `run 1 (pid ${firstPid}) exited with code 3 · trace: ${started.trace} · view · download`,
    );
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`${earlier} a[data-download]`),
    ]);
    expect(saved.suggestedFilename()).toMatch(/^dies-mid-turn-\d{8}-\d{6}\.trace\.ndjson$/);
    expect(readFileSync(await saved.path(), 'utf8')).toBe(readFileSync(started.trace, 'utf8'));
    const [view] = await Promise.all([
      page.context().waitForEvent('page'),
      page.click(`${earlier} a[data-view]`),
    ]);
    await view.waitForSelector('body[data-ready="true"]');
    // The first run as it ended: its frames, the turn cut short, the exit.
    const firstFrames = framesOf(readTraceFile(started.trace)).length;
    expect(await view.getAttribute('#stats', 'data-frames')).toBe(String(firstFrames));
    expect(await view.textContent('#stats')).toContain('exit 3');
    expect(await view.getAttribute(`.tl-lane[data-session="${sessionId}"] .tl-turn`, 'class')).toBe(
      'tl-span tl-turn tl-unfinished',
    );
    await view.close();
    expect(errorsOf(page)).toEqual([]);
    await page.close();

    // Each process has its trace: the first ends with exit 3, the second is recorded beside it.
    await stopInspector(started);
    expect(readTraceFile(started.trace).at(-1)).toMatchObject({ type: 'exit', exitCode: 3 });
    const second = readTraceFile(secondTrace);
    expect(second[0]).toMatchObject({ type: 'header' });
    expect(second.at(-1)).toMatchObject({ type: 'exit', exitCode: 0 });
  });
});
