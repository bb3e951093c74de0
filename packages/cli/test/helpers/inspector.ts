// The inspector as the browser tests drive it: bin/dsh-sdk inspect started on a runtime (its
// URL read from stdout, its terminal output kept), and what the tests wait for on its page.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser } from './browser.js';
import type { TestBrowser } from './browser.js';
import { DSH_SDK, tempDir } from './cli.js';

export interface Started {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly trace: string;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
  /** Resolves with the inspector's stderr (the terminal) once it holds `text` (`times` times). */
  readonly printed: (text: string, times?: number) => Promise<string>;
}

/** The route a test initializes with (the page's initialize form otherwise). */
export const ECHO_ROUTE = ['--provider', 'echo', '--model', 'echo-1'];

/**
 * Starts `dsh-sdk inspect` on `runtime runtimeArgs…` (from `cwd`, by default this process's),
 * recording to a new temporary file, the runtime streaming a chunk every 100 ms.
 */
export async function startInspector(
  runtime: string,
  route = ECHO_ROUTE,
  runtimeArgs: readonly string[] = [],
  cwd?: string,
): Promise<Started> {
  const trace = join(tempDir(), 'inspect.trace.ndjson');
  const child = spawn(
    DSH_SDK,
    ['inspect', ...route, '--out', trace, '--', runtime, ...runtimeArgs],
    // Slow chunks, so the test sees the reply arrive piece by piece.
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '100' },
      ...(cwd === undefined ? {} : { cwd }),
    },
  );
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const check of waiting) check();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  const printed = (text: string, times = 1): Promise<string> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (stderr.split(text).length - 1 < times) return;
        waiting.delete(check);
        resolve(stderr);
      };
      waiting.add(check);
      check();
    });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('close', () => reject(new Error(`inspect exited early: ${stderr}`)));
  });
  return { child, url: new URL(firstLine), trace, exited, printed };
}

/** Stops an inspector (Ctrl-C's signal) and waits for it and its runtime to be gone. */
export async function stopInspector(started: Started | undefined): Promise<void> {
  if (!started) return;
  started.child.kill('SIGTERM');
  await started.exited;
}

export function get(url: URL, host?: string): Promise<number> {
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
export async function logged(page: Page, line: string): Promise<void> {
  await page.locator('#prompt-log li', { hasText: line }).first().waitFor();
  expect(await page.locator('#prompt-log li', { hasText: line }).first().textContent()).toBe(line);
}

/** Waits until the list has scrolled to show its last frame: it follows the frames as they come. */
export async function lastFrameInView(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const list = document.getElementById('list')!;
    const last = String(Number(document.querySelector('#stats')!.getAttribute('data-frames')) - 1);
    const view = list.getBoundingClientRect();
    return (
      list.scrollTop > 0 &&
      [...list.querySelectorAll('.vl-row:not([hidden])')].some((row) => {
        const box = row.getBoundingClientRect();
        return (
          row.querySelector('.c-seq')?.textContent === last &&
          box.top >= view.top - 1 &&
          box.bottom <= view.bottom + 1
        );
      })
    );
  });
}

/** Records every distinct text the session's streamed-text element shows, from now on. */
export async function watchStreamedText(page: Page): Promise<void> {
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

/**
 * A describe block's browser and inspector on `runtime`, started before its tests and stopped
 * after them. `open()` opens a page on the inspector once its runtime is ready.
 */
export function sharedInspector(runtime: string): {
  readonly browser: () => TestBrowser;
  readonly inspector: () => Started;
  readonly open: () => Promise<Page>;
} {
  let browser: TestBrowser | undefined;
  let inspector: Started | undefined;
  beforeAll(async () => {
    [browser, inspector] = await Promise.all([launchBrowser(), startInspector(runtime)]);
  });
  afterAll(async () => {
    await stopInspector(inspector);
    await browser?.close();
  });
  return {
    browser: () => browser!,
    inspector: () => inspector!,
    open: () => openReady(browser!, inspector!),
  };
}

/**
 * A describe block's browser, and an inspector per test (`start` as {@link startInspector}),
 * stopped after each test.
 */
export function inspectorPerTest(): {
  readonly browser: () => TestBrowser;
  readonly start: (...args: Parameters<typeof startInspector>) => Promise<Started>;
} {
  let browser: TestBrowser | undefined;
  let inspector: Started | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await stopInspector(inspector);
    inspector = undefined;
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser: () => browser!,
    start: async (...args) => (inspector = await startInspector(...args)),
  };
}

/** A new page on the inspector, once its runtime is initialized. */
export async function openReady(browser: TestBrowser, inspector: Started): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(inspector.url.href);
  await page.waitForSelector('#live-status[data-state="ready"]');
  return page;
}
