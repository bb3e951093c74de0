// The inspector's follow mode in a real headless Chromium, against the TypeScript reference
// runtime streaming a long reply a chunk every 100 ms after a pause: on at first, it keeps the
// turn in view and readable (not a sliver at the end of a trace that began long before); a zoom,
// a scroll or fit turns it off, and the view then stays where it was put while the turn runs on
// past its edge; the follow button turns it back on; the page resizing is not a scroll and
// leaves it on. A console error fails the test.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { errorsOf } from './helpers/browser.js';
import { TS_RUNTIME } from './helpers/cli.js';
import { sharedInspector } from './helpers/inspector.js';
import { budgetMs } from './helpers/time-budget.js';

interface Seen {
  /** The running turn's box and the tracks' (the part of the timeline in view). */
  readonly turn: { readonly left: number; readonly right: number; readonly width: number };
  readonly view: { readonly left: number; readonly right: number; readonly width: number };
  /** Characters streamed so far. */
  readonly streamed: number;
}

const see = (page: Page, sessionId: string): Promise<Seen> =>
  page.evaluate((id) => {
    const box = (node: Element) => {
      const { left, right, width } = node.getBoundingClientRect();
      return { left, right, width };
    };
    const turns = document.querySelectorAll(`.tl-lane[data-session="${id}"] .tl-turn`);
    return {
      turn: box(turns[turns.length - 1]!),
      view: box(document.querySelector('.tl-tracks')!),
      streamed:
        document.querySelector('#detail [data-testid="streamed-text"]')?.textContent?.length ?? 0,
    };
  }, sessionId);

/** Waits until more of the reply has streamed than `after` showed, then looks again. */
async function nextFrames(page: Page, sessionId: string, after: Seen): Promise<Seen> {
  await page.waitForFunction(
    (n) =>
      (document.querySelector('#detail [data-testid="streamed-text"]')?.textContent?.length ?? 0) >
      n + 30,
    after.streamed,
    { timeout: budgetMs(20_000) },
  );
  // The timeline draws on the next animation frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return see(page, sessionId);
}

/** The running turn is wholly in view, and takes a good part of it (not a sliver). */
function expectFollowed(seen: Seen): void {
  expect(seen.turn.left, JSON.stringify(seen)).toBeGreaterThanOrEqual(seen.view.left - 1);
  expect(seen.turn.right, JSON.stringify(seen)).toBeLessThanOrEqual(seen.view.right + 1);
  expect(seen.turn.width, JSON.stringify(seen)).toBeGreaterThan(seen.view.width * 0.4);
}

const pressed = (page: Page): Promise<string | null> =>
  page.getAttribute('.tl-zoom button[data-follow]', 'aria-pressed');

describe('follow mode', () => {
  const shared = sharedInspector(TS_RUNTIME);

  test('keeps a turn after a pause in view; zoom, scroll and fit turn it off, its button on', async () => {
    const page = await shared.open();
    expect(await page.isVisible('.tl-zoom button[data-follow]')).toBe(true);
    expect(await pressed(page)).toBe('true');
    // A pause after the handshake, so the whole trace is mostly waiting; then some 60 chunks.
    await page.waitForTimeout(2000);
    const sessionId = await page.inputValue('#prompt-new-session');
    await page.fill('#prompt-text', `follow me: ${'a long reply, '.repeat(70)}`);
    await page.click('#prompt-send');
    await page.waitForSelector(`.tl-lane[data-session="${sessionId}"] .tl-turn`);
    let seen = await see(page, sessionId);
    for (let i = 0; i < 3; i++) {
      seen = await nextFrames(page, sessionId, seen);
      expectFollowed(seen);
    }

    // Zoomed in, follow is off: the view stays on the time it showed, and the turn runs on past
    // its right edge.
    await page.click('.tl-zoom button[data-zoom="1"]');
    expect(await pressed(page)).toBe('false');
    const zoomed = await see(page, sessionId);
    await page.waitForFunction(
      (id) => {
        const turns = document.querySelectorAll(`.tl-lane[data-session="${id}"] .tl-turn`);
        const turn = turns[turns.length - 1]!.getBoundingClientRect();
        return turn.right > document.querySelector('.tl-tracks')!.getBoundingClientRect().right + 1;
      },
      sessionId,
      { timeout: budgetMs(20_000) },
    );
    seen = await nextFrames(page, sessionId, zoomed);
    expect(Math.abs(seen.turn.left - zoomed.turn.left)).toBeLessThanOrEqual(2);
    expect(await pressed(page)).toBe('false');

    // Follow again: the newest activity is back in view, and stays as frames stream.
    await page.click('.tl-zoom button[data-follow]');
    expect(await pressed(page)).toBe('true');
    for (let i = 0; i < 2; i++) {
      seen = await nextFrames(page, sessionId, seen);
      expectFollowed(seen);
    }
    // A narrower window moves the track under the view, which is not a person scrolling: it
    // follows on.
    await page.setViewportSize({ width: 1000, height: 900 });
    seen = await nextFrames(page, sessionId, seen);
    expect(await pressed(page)).toBe('true');
    expectFollowed(seen);

    // A scroll by hand (the wheel, sideways) turns it off, and so does fit (the whole trace).
    const tracks = await page.$eval('.tl-tracks', (n) => n.getBoundingClientRect().toJSON());
    await page.mouse.move(tracks.left + tracks.width / 2, tracks.top + tracks.height / 2);
    await page.mouse.wheel(-200, 0);
    await page.waitForFunction(
      () =>
        document.querySelector('.tl-zoom button[data-follow]')?.getAttribute('aria-pressed') ===
        'false',
    );
    await page.click('.tl-zoom button[data-follow]');
    expect(await pressed(page)).toBe('true');
    await page.click('.tl-zoom button[data-fit]');
    expect(await pressed(page)).toBe('false');
    const fitted = await page.evaluate(() => ({
      inner: document.querySelector('.tl-inner')!.getBoundingClientRect().width,
      tracks: document.querySelector('.tl-tracks')!.clientWidth,
    }));
    expect(Math.abs(fitted.inner - fitted.tracks)).toBeLessThanOrEqual(1);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });
});
