// `pnpm --filter @dsh-sdk/cli screenshot`: records a short conversation with the TypeScript
// reference runtime through dsh-sdk trace (a delegate turn, a plain prompt, one invalid line),
// opens dsh-sdk view's page in headless Chromium and saves docs/images/viewer.png.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessSdkClientPeer, JsonRpcLineTransport } from '@dsh-sdk/protocol';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const out = process.argv[2] ?? join(root, 'docs/images/viewer.png');
const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-shot-'));
const trace = join(dir, 'demo.trace.ndjson');

const child = spawn(
  join(root, 'bin/dsh-sdk'),
  ['trace', '--quiet', '--out', trace, '--', join(root, 'bin/dsh-sdk-runtime')],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '4' },
  },
);
const exited = new Promise((resolve) => child.on('close', resolve));
const peer = new HarnessSdkClientPeer(
  new JsonRpcLineTransport({ input: child.stdout, output: child.stdin }).start(),
);
const idle = new Map();
peer.onSessionStatus(({ sessionId, status }) => status === 'idle' && idle.get(sessionId)?.());
const prompt = async (sessionId, text) => {
  const done = new Promise((resolve) => idle.set(sessionId, resolve));
  await peer.sessionPrompt({ sessionId, contentBlocks: [{ type: 'text', text }] });
  await done;
};
await peer.initialize({ cwd: '/work', provider: 'echo', model: 'echo-1' });
child.stdin.write(
  '{"jsonrpc":"2.0","id":"x","method":"session/prompt","params":{"sessionId":""}}\n',
);
await Promise.all([
  prompt('review', '/delegate check the changelog for the release notes'),
  prompt('chat', 'What does the recording proxy change on the wire? Nothing at all.'),
]);
await peer.shutdown();
await exited;

const html = join(dir, 'demo.html');
const view = spawnSync(join(root, 'bin/dsh-sdk'), ['view', trace, '--out', html], {
  stdio: 'inherit',
});
if (view.status !== 0) process.exit(1);
const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
  executablePath: process.env.DSH_SDK_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 820 },
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
const page = await context.newPage();
await page.goto(`file://${html}`);
await page.waitForSelector('body[data-ready="true"]');
// Select the delegate's tool call, then show its session (which zooms the timeline onto it).
await page.selectOption('#filter-event', 'tool/call');
await page.click('#list .vl-row[data-position="0"]');
await page.selectOption('#filter-event', '');
await page.click('.tl-label[data-session="review"]');
await page.screenshot({ path: out });
await context.close();
console.log(`wrote ${out}`);
