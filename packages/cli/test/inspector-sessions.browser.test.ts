// The inspector's sessions in a real headless Chromium: a session id prompted again after its
// Close is a new session (WIRE.md §9) with its own lane, turns and replies, against both
// reference runtimes; and the page's small print: a child's lane label beside its turn count, the
// filter menus before anything came. A console error fails the test.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { errorsOf } from './helpers/browser.js';
import { PY_RUNTIME, TS_RUNTIME } from './helpers/cli.js';
import { logged, sharedInspector } from './helpers/inspector.js';
import { budgetMs } from './helpers/time-budget.js';

/** Sends `text` to the session picked (or named in the new-session box); waits for its turn. */
async function prompt(page: Page, sessionId: string, text: string, turn: number): Promise<void> {
  await page.fill('#prompt-text', text);
  await page.click('#prompt-send');
  await page.waitForSelector(
    `#detail .turn[data-turn="${turn}"] h3:text("Turn ${turn} · completed")`,
    { timeout: budgetMs(20_000) },
  );
  expect(await page.inputValue('#prompt-session')).toBe(sessionId);
}

/** The replies the detail pane shows, turn by turn: `Turn 0 · completed: Echo: …`. */
function turnsShown(page: Page): Promise<string[]> {
  return page.$$eval('#detail .turn', (turns) =>
    turns.map(
      (t) =>
        `${t.querySelector('h3')?.textContent}: ${t.querySelector('[data-testid="streamed-text"]')?.textContent}`,
    ),
  );
}

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('a session closed and prompted again, against the %s runtime', (_name, runtime) => {
  const shared = sharedInspector(runtime);

  test('is a new session: its own lane, turns and replies, and the closed one keeps its history', async () => {
    const page = await shared.open();
    const id = await page.inputValue('#prompt-new-session');
    await prompt(page, id, 'first question', 0);
    await prompt(page, id, 'second question', 1);
    await page.click('#session-actions button[data-action="close"]');
    await logged(page, `${id} · close → {"found":true}`);
    // After Close the picker is on a new session (the closed one cannot be picked).
    await page.waitForSelector(`.tl-label[data-session="${id}"][data-closed="true"]`);
    expect(await page.inputValue('#prompt-session')).toBe('');

    // The same id again, typed in the new-session box: the runtime starts a new session, whose
    // message ids start again.
    await page.fill('#prompt-new-session', id);
    await prompt(page, id, 'third question', 0);
    await logged(page, `${id} · prompt → {"messageId":"${id}/m1"}`);
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`session:${id}#2`);
    expect(await page.textContent('#detail h2')).toBe(`Session ${id} · life 2`);
    expect(await turnsShown(page)).toEqual(['Turn 0 · completed: Echo: third question']);
    // Its own lane, after the first life's, each counting its own turns.
    const label = (life: number): string => `.tl-label[data-session="${id}"][data-life="${life}"]`;
    expect(await page.textContent(`${label(1)} .tl-label-meta`)).toBe('closed · 2');
    expect(await page.textContent(`${label(2)} .tl-label-meta`)).toBe('1 turn');
    expect(await page.textContent(`${label(2)} .tl-label-name`)).toBe(`${id} · life 2`);
    const turnSpans = (life: number): Promise<number> =>
      page.locator(`.tl-lane[data-session="${id}"][data-life="${life}"] .tl-turn`).count();
    expect([await turnSpans(1), await turnSpans(2)]).toEqual([2, 1]);
    // The first life's history, its replies not merged with the new one's.
    await page.click(label(1));
    expect(await page.getAttribute('#detail', 'data-showing')).toBe(`session:${id}`);
    expect(await turnsShown(page)).toEqual([
      'Turn 0 · completed: Echo: first question',
      'Turn 1 · completed: Echo: second question',
    ]);
    expect(await page.textContent('#detail [data-fact="state"] dd')).toBe('closed');
    // The session filter lists both lives, and picks one at a time.
    const options = await page.$$eval('#filter-session option', (n) =>
      n.map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    );
    expect(options).toContainEqual([id, `${id} (closed)`]);
    expect(options).toContainEqual([`${id}#2`, `${id} · life 2`]);
    await page.selectOption('#filter-session', `${id}#2`);
    const sessions = await page.$$eval('#list .vl-row:not([hidden]) .c-session', (n) =>
      n.map((x) => x.textContent),
    );
    expect(new Set(sessions)).toEqual(new Set([id]));
    expect(Number(await page.getAttribute('#stats', 'data-shown'))).toBeLessThan(
      Number(await page.getAttribute('#stats', 'data-frames')) / 2,
    );
    // The new life is open: the picker offers it, with its actions.
    expect(await page.inputValue('#prompt-session')).toBe(id);
    expect(await page.isEnabled('#session-actions button[data-action="close"]')).toBe(true);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });
});

describe('the page before and around a delegation', () => {
  const shared = sharedInspector(TS_RUNTIME);

  test('filter menus read "every …" before anything came, and a child lane label clears its turn count', async () => {
    const page = await shared.open();
    // No event yet: the menu says so in words, wide enough to read, and is off.
    const menu = await page.$eval('#filter-event', (select) => ({
      text: select.textContent,
      width: select.getBoundingClientRect().width,
      disabled: (select as HTMLSelectElement).disabled,
    }));
    expect(menu.text).toBe('every event type');
    expect(menu.disabled).toBe(true);
    expect(menu.width).toBeGreaterThan(60);
    for (const id of ['filter-method', 'filter-session']) {
      expect(await page.$eval(`#${id}`, (s) => s.getBoundingClientRect().width)).toBeGreaterThan(
        60,
      );
    }

    const id = 'a-session-with-a-rather-long-name';
    await page.fill('#prompt-new-session', id);
    await page.fill('#prompt-text', '/delegate look at the release notes');
    await page.click('#prompt-send');
    const child = `.tl-label[data-session="${id}/child1"]`;
    await page.waitForSelector(`${child} .tl-label-meta:text("1 turn")`, {
      timeout: budgetMs(20_000),
    });
    expect(await page.isEnabled('#filter-event')).toBe(true);
    // The name is cut short (…) before the count, with room between them, inside the label.
    // Found and measured in one go: the timeline redraws its lanes as frames keep coming.
    const boxes = await page.evaluate((selector) => {
      const label = document.querySelector(selector)!;
      const box = (n: Element) => n.getBoundingClientRect();
      const name = label.querySelector('.tl-label-name')!;
      return {
        label: box(label).toJSON() as DOMRect,
        name: box(name).toJSON() as DOMRect,
        meta: box(label.querySelector('.tl-label-meta')!).toJSON() as DOMRect,
        cut: name.scrollWidth > name.clientWidth,
      };
    }, child);
    expect(boxes.cut, JSON.stringify(boxes)).toBe(true);
    expect(boxes.meta.left - boxes.name.right).toBeGreaterThanOrEqual(4);
    expect(boxes.name.left).toBeGreaterThanOrEqual(boxes.label.left);
    expect(boxes.meta.right).toBeLessThanOrEqual(boxes.label.right);
    // The label column keeps its width (a long id does not push the tracks aside).
    expect(boxes.label.width).toBeLessThanOrEqual(181);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });
});
