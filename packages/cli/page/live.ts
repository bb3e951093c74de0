// The live inspector's part of the page: records streamed from the inspector (server-sent
// events), the connection's and the runtime's state (stderr, how it ended, a restart and the runs
// before it), the prompt box (text and an image file), the session picker with its actions, the
// log of what was sent and answered, and the trace's download.
import type { ViewerApp } from './app.js';
import { byId, el } from './dom.js';
import { checkHeader, parseRecord } from './records.js';
import { describeProcess, renderRuns, RuntimeStatus } from './runtime-status.js';
import type { RuntimeState } from './runtime-status.js';
import { NEW_SESSION, SessionPicker } from './session-picker.js';

/** What the inspector reports about its connection (its `/state` and `state` events). */
export interface InspectorState {
  readonly initialized: boolean;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: number;
  readonly capabilities?: Record<string, unknown>;
  /** Session actions the runtime supports (from its capabilities), one button each. */
  readonly actions: readonly { readonly name: string; readonly label: string }[];
  /** The current run. */
  readonly runtime: RuntimeState;
  /** The runs before the last restart, first first. */
  readonly earlierRuns: readonly RuntimeState[];
  readonly error?: string;
  readonly defaults: { readonly cwd: string; readonly provider: string; readonly model: string };
  readonly command: readonly string[];
  /** The name the current run's trace is saved under. */
  readonly traceFile: string;
}

type Answer = Record<string, unknown>;

export function startLive(app: ViewerApp, token: string): void {
  const api = (path: string, query: Record<string, string> = {}): string =>
    `${path}?${new URLSearchParams({ token, ...query }).toString()}`;
  byId('live').hidden = false;
  byId('mode-name').textContent = 'inspect';
  const runtimeStatus = new RuntimeStatus();
  const download = byId<HTMLAnchorElement>('trace-download');
  download.href = api('/trace');
  const post = async (path: string, body: unknown): Promise<Answer> => {
    const response = await fetch(api(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Answer;
  };

  let state: InspectorState | undefined;
  const picker = new SessionPicker(app, () => renderActions());
  const renderActions = (): void => {
    const sessionId = picker.value;
    const running = state?.runtime.running === true;
    const buttons = (state?.actions ?? []).map((action) => {
      const button = el('button', { type: 'button', 'data-action': action.name }, action.label);
      button.disabled = sessionId === NEW_SESSION || !running;
      button.addEventListener('click', () => {
        void post('/action', { name: action.name, sessionId }).then((answer) => {
          logAnswer(sessionId, action.name, answer);
          if (action.name === 'close' && !answer['error']) picker.closed(sessionId);
        });
      });
      return button;
    });
    byId('session-actions').replaceChildren(...buttons);
  };
  picker.render();

  listen(app, api, {
    state: (next) => {
      state = next;
      renderState(next, runtimeStatus, api);
      download.download = next.traceFile;
      renderActions();
    },
    stderr: (text) => runtimeStatus.addStderr(text),
  });
  wireRestart(post);

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
    const sessionId = picker.target();
    if (sessionId === NEW_SESSION) return;
    const text = byId<HTMLTextAreaElement>('prompt-text').value;
    const file = byId<HTMLInputElement>('prompt-image').files?.[0];
    // The prompted session becomes the picked one at once, so Interrupt and Close reach it while
    // its turn runs, and the detail pane follows it, so the reply shows as it streams.
    picker.prompted(sessionId);
    app.followSession(sessionId);
    void (async () => {
      const image = file ? { data: await toBase64(file), mimeType: file.type } : undefined;
      const answer = await post('/prompt', { sessionId, text, ...(image ? { image } : {}) });
      logAnswer(sessionId, 'prompt', answer);
      if (!answer['error']) {
        byId<HTMLTextAreaElement>('prompt-text').value = '';
        byId<HTMLInputElement>('prompt-image').value = '';
      }
    })();
  });
}

/** Streams the inspector's events: records into the model, its state, the runtime's stderr. */
function listen(
  app: ViewerApp,
  api: (path: string) => string,
  on: { state: (state: InspectorState) => void; stderr: (text: string) => void },
): void {
  let headerSeen = false;
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
    on.state(JSON.parse((event as MessageEvent<string>).data) as InspectorState);
  });
  source.addEventListener('stderr', (event) => {
    on.stderr(JSON.parse((event as MessageEvent<string>).data) as string);
  });
  // A restart: the new process has a trace of its own, read from its header on (the earlier
  // run stays listed, to view or download).
  source.addEventListener('reset', () => {
    source.close();
    location.reload();
  });
  source.addEventListener('error', () => {
    byId('live-status').textContent = 'disconnected from the inspector';
    byId('live-status').dataset['state'] = 'disconnected';
  });
}

function renderState(
  next: InspectorState,
  runtimeStatus: RuntimeStatus,
  api: (path: string, query?: Record<string, string>) => string,
): void {
  const { runtime } = next;
  const status = byId('live-status');
  const server = next.serverInfo
    ? `${next.serverInfo.name} ${next.serverInfo.version}`
    : 'not initialized';
  status.textContent = `${next.command.join(' ')} · ${describeProcess(runtime)} · ${server}`;
  status.dataset['state'] = runtime.running ? (next.initialized ? 'ready' : 'started') : 'exited';
  status.dataset['pid'] = String(runtime.pid ?? '');
  status.dataset['launcherPid'] = String(runtime.launcher?.pid ?? '');
  runtimeStatus.update(runtime, next.command);
  renderRuns(runtime, next.earlierRuns, api);
  byId('init-form').hidden = next.initialized;
  byId('prompt-form').hidden = !next.initialized;
  // Nothing can be sent to a process that is gone.
  byId<HTMLButtonElement>('prompt-send').disabled = !runtime.running;
  byId<HTMLButtonElement>('init-send').disabled = !runtime.running;
  byId('live-error').textContent = next.error ?? '';
  const provider = byId<HTMLInputElement>('init-provider');
  if (provider.value === '') {
    provider.value = next.defaults.provider;
    byId<HTMLInputElement>('init-model').value = next.defaults.model;
    byId<HTMLInputElement>('init-cwd').value = next.defaults.cwd;
  }
}

function wireRestart(post: (path: string, body: unknown) => Promise<Answer>): void {
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
}

/** The log line of an answer: `session-1 · interrupt → {"found":true,"wasRunning":true}`. */
function logAnswer(sessionId: string, action: string, answer: Answer): void {
  const failed = answer['error'] !== undefined;
  const item = el('li', {
    class: failed ? 'error' : 'ok',
    'data-action': action,
    'data-session': sessionId,
  });
  const what = failed
    ? `error ${JSON.stringify(answer['error'])}`
    : JSON.stringify(answer['result']);
  item.textContent = `${sessionId} · ${action} → ${what}`;
  byId('prompt-log').prepend(item);
}

async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
