// The viewer page (dist/page.html, built from page/) with its data: a recorded trace embedded in
// the file, or the settings the live page needs to reach the inspector.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PAGE_PATH = fileURLToPath(new URL('./page.html', import.meta.url));
const DATA_SLOT = '<!--DSH-DATA-->';

let template: string | undefined;

function pageTemplate(): string {
  template ??= readFileSync(PAGE_PATH, 'utf8');
  return template;
}

/**
 * JSON for inside a `<script>` element: every `<` escaped, so no `</script>` or `<!--` in the
 * data can end the element. `<` only ever occurs inside JSON strings, where `\u003c` means `<`.
 */
function scriptSafe(json: string): string {
  return json.replace(/</g, '\\u003c');
}

export interface PageSettings {
  readonly mode: 'file' | 'live';
  readonly title: string;
  readonly token?: string;
}

function render(settings: PageSettings, data: string): string {
  const config = `<script id="dsh-config" type="application/json">${scriptSafe(JSON.stringify(settings))}</script>`;
  let html = pageTemplate();
  // A file opened from disk talks to nobody.
  if (settings.mode === 'file') html = html.replace("connect-src 'self'", "connect-src 'none'");
  const at = html.indexOf(DATA_SLOT);
  return `${html.slice(0, at)}${config}\n${data}${html.slice(at + DATA_SLOT.length)}`;
}

/** The self-contained page for a recorded trace (the trace's text, one record per line). */
export function renderTracePage(traceText: string, title: string): string {
  const data = `<script id="dsh-trace" type="application/x-ndjson">${scriptSafe(traceText)}</script>`;
  return render({ mode: 'file', title }, data);
}

/** The live inspector's page: records arrive from the inspector, authenticated by `token`. */
export function renderLivePage(token: string, title: string): string {
  return render({ mode: 'live', title, token }, '');
}
