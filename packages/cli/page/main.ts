// The page's entry: a recorded trace embedded in the page (`dsh-sdk view`), or a live one
// streamed by the inspector (`dsh-sdk inspect`).
import './styles.css';
import { ViewerApp } from './app.js';
import { byId } from './dom.js';
import { startLive } from './live.js';
import { checkHeader, parseRecord, TraceReadError } from './records.js';

interface PageConfig {
  readonly mode: 'file' | 'live';
  readonly token?: string;
  readonly title?: string;
}

function loadEmbedded(app: ViewerApp): void {
  const text = byId('dsh-trace').textContent ?? '';
  let start = 0;
  let first = true;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      const read = parseRecord(text.slice(start, end));
      if (!read) app.model.unreadable += 1;
      else {
        if (first) checkHeader(read.record);
        first = false;
        app.addRecord(read);
      }
    }
    start = end + 1;
  }
  if (first) throw new TraceReadError('the trace is empty');
}

function main(): void {
  performance.mark('dsh:start');
  const config = JSON.parse(byId('dsh-config').textContent ?? '{}') as PageConfig;
  if (config.title) document.title = config.title;
  const app = new ViewerApp(config.mode === 'live');
  // A handle for people and measurements poking at the page from the console.
  (window as unknown as { dshViewer: ViewerApp }).dshViewer = app;
  try {
    if (config.mode === 'file') loadEmbedded(app);
  } catch (error) {
    app.showError(error instanceof Error ? error.message : String(error));
  }
  performance.mark('dsh:parsed');
  app.refresh();
  if (config.mode === 'live' && config.token !== undefined) startLive(app, config.token);
  requestAnimationFrame(() => {
    performance.mark('dsh:first-render');
    document.body.dataset['ready'] = 'true';
  });
}

main();
