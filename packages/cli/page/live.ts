// The live inspector's part of the page: records streamed from the inspector (server-sent
// events), the connection's and the runtime's state (stderr, how it ended, a restart), the prompt
// box (text and an image file), the session picker and the trace's download.
import type { ViewerApp } from './app.js';
import { byId, el } from './dom.js';
import { checkHeader, parseRecord } from './records.js';
import { CONNECTION_LANE } from './model.js';
import { RuntimeStatus } from './runtime-status.js';
import type { RuntimeState } from './runtime-status.js';

/** What the inspector reports about its connection (its `/state` and `state` events). */
export interface InspectorState {
  readonly initialized: boolean;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: number;
  readonly capabilities?: Record<string, unknown>;
  /** Session actions the runtime supports (from its capabilities), one button each. */
  readonly actions: readonly { readonly name: string; readonly label: string }[];
  readonly runtime: RuntimeState;
  readonly error?: string;
  readonly defaults: { readonly cwd: string; readonly provider: string; readonly model: string };
  readonly command: readonly string[];
  /** The name the trace is saved under. */
  readonly traceFile: string;
}

const NEW_SESSION = '';

export function startLive(app: ViewerApp, token: string): void {
  const api = (path: string): string => `${path}?token=${encodeURIComponent(token)}`;
  byId('live').hidden = false;
  byId('mode-name').textContent = 'inspect';
  let headerSeen = false;
  const runtimeStatus = new RuntimeStatus();
  const download = byId<HTMLAnchorElement>('trace-download');
  download.href = api('/trace');

  const source = new EventSource(api('/events'));
  source.addEventListener('record', (event) => {
    const read = parseRecord((event as MessageEvent<string>).data);
    if (!read) {
      app.model.unreadable += 1;
      return;
    }
    if (!headerSeen) {
      checkHeader(read.record);
      headerSeen = true;
    }
    const from = app.model.rows.length;
    app.addRecord(read);
    app.appended(from);
  });
  source.addEventListener('state', (event) => {
    renderState(JSON.parse((event as MessageEvent<string>).data) as InspectorState);
  });
  source.addEventListener('stderr', (event) => {
    runtimeStatus.addStderr(JSON.parse((event as MessageEvent<string>).data) as string);
  });
  // A restart: the new process has a trace of its own, read from its header on.
  source.addEventListener('reset', () => {
    source.close();
    location.reload();
  });
  source.addEventListener('error', () => {
    byId('live-status').textContent = 'disconnected from the inspector';
    byId('live-status').dataset['state'] = 'disconnected';
  });

  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(api(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };

  let state: InspectorState | undefined;
  const renderState = (next: InspectorState): void => {
    state = next;
    const { runtime } = next;
    const status = byId('live-status');
    const life = runtime.running
      ? `running (pid ${runtime.pid ?? '?'})`
      : runtime.spawnError !== undefined
        ? 'not started'
        : `exited (${runtime.exitCode ?? runtime.signal ?? '?'})`;
    const server = next.serverInfo
      ? `${next.serverInfo.name} ${next.serverInfo.version}`
      : 'not initialized';
    status.textContent = `${next.command.join(' ')} · ${life} · ${server}`;
    status.dataset['state'] = runtime.running ? (next.initialized ? 'ready' : 'started') : 'exited';
    status.dataset['pid'] = String(runtime.pid ?? '');
    runtimeStatus.update(runtime, next.command);
    byId('init-form').hidden = next.initialized;
    byId('prompt-form').hidden = !next.initialized;
    // Nothing can be sent to a process that is gone.
    byId<HTMLButtonElement>('prompt-send').disabled = !runtime.running;
    byId<HTMLButtonElement>('init-send').disabled = !runtime.running;
    byId('live-error').textContent = next.error ?? '';
    download.download = next.traceFile;
    const provider = byId<HTMLInputElement>('init-provider');
    if (provider.value === '') {
      provider.value = next.defaults.provider;
      byId<HTMLInputElement>('init-model').value = next.defaults.model;
      byId<HTMLInputElement>('init-cwd').value = next.defaults.cwd;
    }
    renderActions();
  };

  const restart = byId<HTMLButtonElement>('runtime-restart');
  restart.addEventListener('click', () => {
    restart.disabled = true;
    restart.textContent = 'Restarting…';
    post('/restart', {})
      .then((answer) => {
        // On success the page reloads (the `reset` event); this is for a refusal.
        if (answer['error']) {
          byId('live-error').textContent = JSON.stringify(answer['error']);
          restart.disabled = false;
          restart.textContent = 'Restart runtime';
        }
      })
      // The reload may cut the answer short: nothing to report then.
      .catch(() => undefined);
  });

  // The picker lists the root sessions seen so far and those prompted from here (before their
  // first frame), closed ones marked, plus a new session.
  const picker = byId<HTMLSelectElement>('prompt-session');
  const newSession = byId<HTMLInputElement>('prompt-new-session');
  const prompted = new Set<string>();
  const renderActions = (): void => {
    const box = byId('session-actions');
    const sessionId = picker.value;
    const running = state?.runtime.running === true;
    const buttons = (state?.actions ?? []).map((action) => {
      const button = el('button', { type: 'button', 'data-action': action.name }, action.label);
      button.disabled = sessionId === NEW_SESSION || !running;
      button.addEventListener('click', () => {
        void post('/action', { name: action.name, sessionId }).then((answer) =>
          log(sessionId, answer),
        );
      });
      return button;
    });
    box.replaceChildren(...buttons);
  };

  const log = (sessionId: string, answer: Record<string, unknown>): void => {
    const item = el('li', { class: answer['error'] ? 'error' : 'ok' });
    item.textContent = answer['error']
      ? `${sessionId}: ${JSON.stringify(answer['error'])}`
      : `${sessionId}: ${JSON.stringify(answer['result'])}`;
    byId('prompt-log').prepend(item);
  };

  let nextSession = 1;
  const suggestNew = (): void => {
    while (app.model.lanes.has(`session-${nextSession}`) || prompted.has(`session-${nextSession}`))
      nextSession += 1;
    if (newSession.dataset['edited'] !== 'true') newSession.value = `session-${nextSession}`;
  };
  const renderPicker = (): void => {
    const current = picker.value;
    const ids = app.model
      .orderedLanes()
      .filter(({ lane, depth }) => depth === 0 && lane.id !== CONNECTION_LANE)
      .map(({ lane }) => lane.id);
    for (const id of prompted) if (!ids.includes(id)) ids.push(id);
    const options = ids.map((id) => {
      const closed = app.model.lanes.get(id)?.closed === true;
      const option = el('option', { value: id }, closed ? `${id} (closed)` : id);
      if (closed) option.dataset['closed'] = 'true';
      return option;
    });
    picker.replaceChildren(el('option', { value: NEW_SESSION }, 'new session'), ...options);
    picker.value = ids.includes(current) ? current : NEW_SESSION;
    newSession.hidden = picker.value !== NEW_SESSION;
    suggestNew();
    renderActions();
  };
  document.addEventListener('dsh:sessions', renderPicker);
  picker.addEventListener('change', () => {
    newSession.hidden = picker.value !== NEW_SESSION;
    renderActions();
  });
  newSession.addEventListener('input', () => (newSession.dataset['edited'] = 'true'));
  renderPicker();

  byId<HTMLFormElement>('init-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void post('/initialize', {
      cwd: byId<HTMLInputElement>('init-cwd').value,
      provider: byId<HTMLInputElement>('init-provider').value,
      model: byId<HTMLInputElement>('init-model').value,
    }).then((answer) => {
      if (answer['error']) byId('live-error').textContent = JSON.stringify(answer['error']);
    });
  });

  byId<HTMLFormElement>('prompt-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const sessionId = picker.value === NEW_SESSION ? newSession.value.trim() : picker.value;
    if (sessionId === NEW_SESSION) return;
    const text = byId<HTMLTextAreaElement>('prompt-text').value;
    const file = byId<HTMLInputElement>('prompt-image').files?.[0];
    // The prompted session becomes the picked one at once, so Interrupt and Close reach it while
    // its turn runs, and the detail pane follows it, so the reply shows as it streams.
    prompted.add(sessionId);
    newSession.dataset['edited'] = 'false';
    renderPicker();
    picker.value = sessionId;
    newSession.hidden = true;
    renderActions();
    app.showSession(sessionId);
    void (async () => {
      const image = file ? { data: await toBase64(file), mimeType: file.type } : undefined;
      const answer = await post('/prompt', { sessionId, text, ...(image ? { image } : {}) });
      log(sessionId, answer);
      if (!answer['error']) {
        byId<HTMLTextAreaElement>('prompt-text').value = '';
        byId<HTMLInputElement>('prompt-image').value = '';
      }
    })();
  });
}

async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
