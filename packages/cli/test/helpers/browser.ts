// Headless Chromium from the machine's Debian package (scripts/setup-chromium.sh), driven by
// playwright-core. Every page records its console errors and uncaught exceptions; a test reads
// them with `errorsOf(page)` and fails when there are any.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { budgetMs } from './time-budget.js';

export const CHROMIUM_PATH = process.env['DSH_SDK_CHROMIUM'] ?? '/usr/bin/chromium';

const pageErrors = new WeakMap<Page, string[]>();

export interface TestBrowser {
  readonly context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'dsh-sdk-chromium-'));
  // A fresh profile per launch (DEVELOPERS.md's flags; playwright passes it as --user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: budgetMs(30_000),
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Playwright's own 30 s for every wait, scaled like the tests' budgets: the page is slow under load.
  context.setDefaultTimeout(budgetMs(30_000));
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: string[] = [];
      pageErrors.set(page, errors);
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Console errors and uncaught exceptions of the page so far. */
export function errorsOf(page: Page): readonly string[] {
  return pageErrors.get(page) ?? [];
}
