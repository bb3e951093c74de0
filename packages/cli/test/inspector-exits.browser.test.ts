// How the inspector reports a runtime that is killed, in a real headless Chromium: a turn cut
// short is drawn unfinished (as the legend and the detail pane say); and through a launcher that
// stays its parent (npx in a scratch project, a shell script without exec) the page shows the
// runtime's own pid, never the launcher's, and its death by SIGKILL, not the launcher's code 137.
// A console error fails the test.
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceExit } from '@dsh-sdk/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { errorsOf } from './helpers/browser.js';
import { readTraceFile, REPO_ROOT, tempDir, TS_RUNTIME } from './helpers/cli.js';
import { ECHO_ROUTE, inspectorPerTest, openReady } from './helpers/inspector.js';

/** The command line of a process, as /proc shows it. */
function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
}

/** The parent of a process. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * A project as npm leaves it: a package.json, and the runtime's command in node_modules/.bin (a
 * link to the package's bin file, as `npm install` makes it); and a launcher script beside it
 * that runs the command without exec, as many do.
 */
function scratchProject(): { dir: string; script: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'package.json'), '{"name":"scratch","private":true,"type":"module"}\n');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  const bin = join(REPO_ROOT, 'packages/runtime/bin/dsh-sdk-runtime.js');
  symlinkSync(bin, join(dir, 'node_modules/.bin/dsh-sdk-runtime'));
  const script = join(dir, 'run-runtime.sh');
  writeFileSync(script, '#!/bin/sh\nnode_modules/.bin/dsh-sdk-runtime "$@"\nexit $?\n');
  chmodSync(script, 0o755);
  return { dir, script };
}

/** Prompts a reply long enough to be killed in the middle of, and waits for its first chunks. */
async function startLongTurn(page: Page): Promise<string> {
  const sessionId = await page.inputValue('#prompt-new-session');
  await page.fill('#prompt-text', `a long reply to be cut short: ${'words, '.repeat(200)}`);
  await page.click('#prompt-send');
  await page.waitForFunction(
    () =>
      (document.querySelector('#detail [data-testid="streamed-text"]')?.textContent?.length ?? 0) >
      40,
  );
  return sessionId;
}

const inspectors = inspectorPerTest();

describe('a runtime killed mid-turn', () => {
  test('its turn is drawn unfinished, as the legend and the detail pane say', async () => {
    const page = await openReady(inspectors.browser(), await inspectors.start(TS_RUNTIME));
    const pid = Number(await page.getAttribute('#live-status', 'data-pid'));
    const sessionId = await startLongTurn(page);
    process.kill(pid, 'SIGKILL');
    await page.waitForSelector('#runtime-banner[data-signal="SIGKILL"]');
    const turn = `.tl-lane[data-session="${sessionId}"] .tl-turn`;
    await page.waitForSelector(`${turn}[data-status="unfinished"]`);
    expect(await page.getAttribute(turn, 'class')).toBe('tl-span tl-turn tl-unfinished');
    expect(await page.getAttribute(turn, 'title')).toMatch(
      /^turn 0 · unfinished: the runtime exited after /,
    );
    // It ends where the runtime did: at the exit mark.
    const [turnRight, exitLeft] = await page.evaluate((selector) => {
      const exit = document.querySelector('.tl-mark[data-mark="exit"]')!.getBoundingClientRect();
      return [document.querySelector(selector)!.getBoundingClientRect().right, exit.left];
    }, turn);
    expect(Math.abs(turnRight - exitLeft)).toBeLessThanOrEqual(4);
    // The legend has it, drawn as the lane draws it.
    const item = page.locator('.tl-legend-item', { hasText: 'turn unfinished' });
    expect(await item.textContent()).toBe('turn unfinished (the runtime exited)');
    const look = (selector: string): Promise<string> =>
      page.$eval(selector, (n) => {
        const style = getComputedStyle(n);
        return `${style.backgroundImage} ${style.boxShadow}`;
      });
    expect(await look('.tl-legend .sw-unfinished')).toBe(await look(turn));
    expect(await look(turn)).not.toBe(await look('.tl-legend .sw-open'));
    await page.waitForSelector(
      `#detail .turn[data-turn="0"] h3:text("Turn 0 · unfinished (the runtime exited)")`,
    );
    expect(await page.textContent('#stats')).toContain('exit SIGKILL');
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });
});

describe.each([
  ['npx', ['dsh-sdk-runtime'], /^npm exec dsh-sdk-runtime$/],
  ['a shell script without exec', [], /^\/bin\/sh .*run-runtime\.sh$/],
])('through %s', (_name, runtimeArgs, launcherCommand) => {
  test("the page shows the runtime's own pid, and its death by SIGKILL", async () => {
    const { dir, script } = scratchProject();
    const program = runtimeArgs.length > 0 ? 'npx' : script;
    const inspector = await inspectors.start(program, ECHO_ROUTE, runtimeArgs, dir);
    const page = await inspectors.browser().newPage();
    // Every pid the status line ever names, from the first.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { pidsShown: string[] }).pidsShown = seen;
      new MutationObserver(() => {
        const pid = document.getElementById('live-status')?.getAttribute('data-pid');
        if (pid && seen.at(-1) !== pid) seen.push(pid);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-pid'] });
    });
    await page.goto(inspector.url.href);
    await page.waitForSelector('#live-status[data-state="ready"][data-pid]:not([data-pid=""])');
    const pid = Number(await page.getAttribute('#live-status', 'data-pid'));
    const launcherPid = Number(await page.getAttribute('#live-status', 'data-launcher-pid'));
    // The runtime is node running the package's bin, under the launcher the inspector started.
    expect(commandOf(pid)).toMatch(/^\S*node\S* \S*node_modules\/\.bin\/dsh-sdk-runtime$/);
    expect(commandOf(launcherPid)).toMatch(launcherCommand);
    expect(parentOf(launcherPid)).toBe(inspector.child.pid);
    let ancestor = parentOf(pid);
    while (ancestor !== launcherPid && ancestor > 1) ancestor = parentOf(ancestor);
    expect(ancestor).toBe(launcherPid);
    expect(await page.textContent('#live-status')).toContain(
      `running (pid ${pid}, through ${commandOf(launcherPid)})`,
    );

    await startLongTurn(page);
    process.kill(pid, 'SIGKILL');
    await page.waitForSelector('#runtime-banner:not([hidden])');
    expect(await page.getAttribute('#runtime-banner', 'data-signal')).toBe('SIGKILL');
    expect(await page.textContent('#runtime-banner-title')).toBe(
      `The runtime (${[program, ...runtimeArgs].join(' ')}) was killed by SIGKILL. Restart it to go on.`,
    );
    const launcher = await inspector.printed(
      'dsh-sdk inspect: the runtime was killed by SIGKILL\n',
    );
    expect(launcher).not.toContain('exited with code 137');
    const through = /through (.+) \(pid (\d+)\), which exited with code 137$/.exec(
      (await page.textContent('#runtime-banner-detail')) ?? '',
    );
    expect(through?.[1]).toMatch(launcherCommand);
    expect(Number(through?.[2])).toBe(launcherPid);
    expect(await page.textContent('#runtime-banner-detail')).toMatch(new RegExp(`^pid ${pid}, `));
    // The launcher's pid was never shown as the runtime's.
    const shown = await page.evaluate(
      () => (window as unknown as { pidsShown: string[] }).pidsShown,
    );
    expect(shown).toEqual([String(pid)]);
    // The trace records the runtime's end, and its launcher's own.
    const exit = readTraceFile(inspector.trace).at(-1) as TraceExit;
    expect(exit).toMatchObject({ type: 'exit', exitCode: null, signal: 'SIGKILL', pid });
    expect(exit.launcher).toMatchObject({ pid: launcherPid, exitCode: 137, signal: null });
    expect(exit.launcher?.command).toMatch(launcherCommand);
    // The download is named after the runtime, not its launcher.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#trace-download'),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^(dsh-sdk-runtime|run-runtime)-\d{8}-\d{6}\.trace\.ndjson$/,
    );
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });
});
