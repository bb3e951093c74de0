// The viewer: filters and search over the frame list, the timeline, the detail pane. The same
// page serves a recorded trace and the live inspector (which adds records as they come).
import { renderFrameDetail, renderSessionDetail } from './detail.js';
import { byId, el, formatBytes, formatMs } from './dom.js';
import { ANY, exitWords, fillSelect, methodCell, sessionLabel } from './labels.js';
import { CONNECTION_LANE, TraceModel } from './model.js';
import type { Row } from './model.js';
import type { ReadRecord } from './records.js';
import { TimelineView } from './timeline.js';
import { VirtualList } from './virtual-list.js';
import type { RenderStats } from './virtual-list.js';

const ROW_HEIGHT = 22;
const ARROW = { clientToServer: '→', serverToClient: '←' } as const;

interface Filters {
  method: string;
  session: string;
  eventType: string;
  dir: string;
  invalidOnly: boolean;
  query: string;
}

export class ViewerApp {
  readonly model = new TraceModel();
  readonly #list: VirtualList;
  /** The list's rendering costs, for measurements (`window.dshViewer.renderStats`). */
  readonly renderStats: RenderStats;
  readonly #timeline: TimelineView;
  readonly #detail = byId('detail');
  readonly #filters: Filters = {
    method: ANY,
    session: ANY,
    eventType: ANY,
    dir: ANY,
    invalidOnly: false,
    query: '',
  };
  readonly #lowered: (string | undefined)[] = [];
  #sessionSet: Set<string> | undefined;
  #visible: number[] = [];
  #selected: number | undefined;
  /** The lane the detail pane shows, when it shows one (redrawn as its turns stream). */
  #detailLane: string | undefined;
  /** A session just prompted whose lane (a new life) has not come yet: the pane waits for it. */
  #awaited: { sessionId: string; notLane: string | undefined } | undefined;
  #known = { methods: -1, sessions: -1, eventTypes: -1 };
  #pending = 0;

  /** `live`: records keep coming (the inspector); the timeline follows them. */
  constructor(live = false) {
    this.#list = new VirtualList(byId('list'), {
      rowHeight: ROW_HEIGHT,
      render: (row, item) => this.#renderRow(row, item),
      onActivate: (item) => this.select(item),
    });
    this.renderStats = this.#list.renderStats;
    this.#timeline = new TimelineView(
      byId('timeline'),
      this.model,
      { onRow: (row) => this.select(row), onLane: (key) => this.showLane(key) },
      live,
    );
    this.#wireFilters();
    byId('list').addEventListener('keydown', (event) => this.#onKey(event));
  }

  /**
   * Adds one record to the model. A record the page cannot make sense of is counted and logged,
   * and the rest of the trace still shows.
   */
  addRecord(read: ReadRecord): void {
    try {
      this.model.add(read.record, read.raw);
    } catch (error) {
      this.model.unreadable += 1;
      console.error(`dsh-sdk: cannot show a record: ${String(error)}: ${read.raw.slice(0, 200)}`);
    }
  }

  /** Recomputes the visible rows and redraws everything (after loading, or a filter change). */
  refresh(): void {
    this.#updateChoices();
    const visible: number[] = [];
    for (const row of this.model.rows) if (this.#matches(row)) visible.push(row.index);
    this.#visible = visible;
    this.#list.setItems(visible);
    this.#timeline.render();
    this.#updateStats();
  }

  /**
   * Live: the model got new records. Rows are appended to the list as they match; the rest is
   * redrawn at most once per animation frame.
   */
  appended(fromRow: number): void {
    const follow = this.#list.isFollowing() || this.#list.isAtEnd();
    for (let i = fromRow; i < this.model.rows.length; i++) {
      const row = this.model.rows[i]!;
      if (this.#matches(row)) this.#visible.push(row.index);
    }
    if (this.#pending !== 0) return;
    this.#pending = requestAnimationFrame(() => {
      this.#pending = 0;
      this.#updateChoices();
      this.#timeline.render();
      this.#updateStats();
      if (this.#awaited !== undefined) this.followSession(this.#awaited.sessionId);
      else if (this.#detailLane !== undefined) this.showLane(this.#detailLane);
      else if (this.#selected !== undefined) this.#showSelected();
      // Last, once the timeline's new lanes took their room from the list.
      this.#list.setItems(this.#visible);
      if (follow) this.#list.scrollToEnd();
    });
  }

  select(index: number): void {
    if (!this.model.rows[index]) return;
    this.#selected = index;
    const position = this.#visible.indexOf(index);
    if (position >= 0) this.#list.reveal(position);
    else this.#list.renderNow();
    this.#timeline.setCursor(this.model.rows[index]!.frame.t);
    this.#detailLane = undefined;
    this.#awaited = undefined;
    this.#showSelected();
  }

  /** Shows one lane (a session's life) in the detail pane, and keeps it there as it grows. */
  showLane(key: string): void {
    this.#detailLane = key;
    this.#awaited = undefined;
    const lane = this.model.lanes.get(key);
    renderSessionDetail(this.#detail, this.model, lane, key, { onRow: (row) => this.select(row) });
    this.#detail.dataset['showing'] = `session:${key}`;
  }

  /**
   * Shows the session just prompted: its current life, or, when that one is closed (the prompt
   * starts a new life), the new one once its first frame comes.
   */
  followSession(sessionId: string): void {
    const current = this.model.currentLane(sessionId);
    const awaited = this.#awaited?.sessionId === sessionId ? this.#awaited : undefined;
    const notLane = awaited ? awaited.notLane : current?.closed ? current.key : undefined;
    if (current && current.key !== notLane) {
      this.showLane(current.key);
      return;
    }
    this.#awaited = { sessionId, notLane };
    this.#detailLane = undefined;
    renderSessionDetail(this.#detail, this.model, undefined, sessionId, {
      onRow: (row) => this.select(row),
    });
    this.#detail.dataset['showing'] = `session:${sessionId}`;
  }

  showError(message: string): void {
    console.error(`dsh-sdk: ${message}`);
    const banner = byId('banner');
    banner.hidden = false;
    banner.textContent = message;
  }

  #showSelected(): void {
    const row = this.model.rows[this.#selected ?? -1];
    if (!row) return;
    renderFrameDetail(this.#detail, this.model, row, { onRow: (r) => this.select(r) });
    this.#detail.dataset['showing'] = `frame:${row.frame.seq}`;
  }

  #renderRow(node: HTMLElement, item: number): void {
    const row = this.model.rows[item]!;
    const { frame } = row;
    node.className = `vl-row dir-${frame.dir}${row.findings.length > 0 ? ' invalid' : ''}${
      item === this.#selected ? ' selected' : ''
    }`;
    let cells = node.children;
    if (cells.length === 0) {
      for (const name of ['seq', 't', 'dir', 'method', 'session', 'size', 'latency', 'summary']) {
        node.append(el('span', { class: `c-${name}` }));
      }
      cells = node.children;
    }
    const latency = this.#latency(row);
    cells[0]!.textContent = String(frame.seq);
    cells[1]!.textContent = formatMs(frame.t);
    cells[2]!.textContent = ARROW[frame.dir];
    cells[3]!.textContent = methodCell(row);
    cells[4]!.textContent = row.sessionId ?? '';
    cells[5]!.textContent = formatBytes(frame.bytes);
    cells[6]!.textContent = latency === undefined ? '' : formatMs(latency);
    cells[7]!.textContent =
      row.findings.length > 0 ? `⚠ ${row.findings[0]!.reason} · ${row.summary}` : row.summary;
  }

  #latency(row: Row): number | undefined {
    if (row.frame.latencyMs !== undefined) return row.frame.latencyMs;
    if (row.responseIndex === undefined) return undefined;
    return this.model.rows[row.responseIndex]!.frame.latencyMs;
  }

  #matches(row: Row): boolean {
    const f = this.#filters;
    if (f.method !== ANY && row.frame.method !== f.method) return false;
    if (this.#sessionSet && !this.#sessionSet.has(row.lane)) return false;
    if (f.eventType !== ANY && row.eventType !== f.eventType) return false;
    if (f.dir !== ANY && row.frame.dir !== f.dir) return false;
    if (f.invalidOnly && row.findings.length === 0) return false;
    if (f.query !== '') {
      let lowered = this.#lowered[row.index];
      if (lowered === undefined) {
        lowered = row.raw.toLowerCase();
        this.#lowered[row.index] = lowered;
      }
      if (!lowered.includes(f.query) && !row.summary.toLowerCase().includes(f.query)) return false;
    }
    return true;
  }

  #wireFilters(): void {
    const bind = (id: string, apply: (value: string) => void): void => {
      const input = byId<HTMLInputElement | HTMLSelectElement>(id);
      input.addEventListener('change', () => {
        apply(input.value);
        this.#refilter();
      });
    };
    bind('filter-method', (v) => (this.#filters.method = v));
    bind('filter-event', (v) => (this.#filters.eventType = v));
    bind('filter-dir', (v) => (this.#filters.dir = v));
    bind('filter-session', (v) => (this.#filters.session = v));
    const invalid = byId<HTMLInputElement>('filter-invalid');
    invalid.addEventListener('change', () => {
      this.#filters.invalidOnly = invalid.checked;
      this.#refilter();
    });
    const search = byId<HTMLInputElement>('search');
    let timer: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.#filters.query = search.value.trim().toLowerCase();
        this.#refilter();
      }, 120);
    });
  }

  #refilter(): void {
    const { session } = this.#filters;
    this.#sessionSet = session === ANY ? undefined : this.model.subtree(session);
    this.refresh();
  }

  /** Adds the methods, sessions and event types seen since the last call to the filter menus. */
  #updateChoices(): void {
    const { model } = this;
    if (model.methods.size !== this.#known.methods) {
      this.#known.methods = model.methods.size;
      fillSelect(byId('filter-method'), [...model.methods].sort(), 'every method');
    }
    if (model.eventTypes.size !== this.#known.eventTypes) {
      this.#known.eventTypes = model.eventTypes.size;
      fillSelect(byId('filter-event'), [...model.eventTypes].sort(), 'every event type');
    }
    if (model.sessionsVersion !== this.#known.sessions) {
      this.#known.sessions = model.sessionsVersion;
      const sessions = model.orderedLanes().map(({ lane, depth }) => ({
        value: lane.key,
        label: `${'  '.repeat(depth)}${sessionLabel(lane)}`,
      }));
      fillSelect(byId('filter-session'), sessions, 'every session');
      document.dispatchEvent(new CustomEvent('dsh:sessions'));
    }
  }

  #updateStats(): void {
    const { model } = this;
    const stats = byId('stats');
    // Each life of a session id is a session of its own.
    const sessions = [...model.lanes.keys()].filter((key) => key !== CONNECTION_LANE).length;
    const parts = [
      `${model.rows.length} frames`,
      `${this.#visible.length} shown`,
      `${sessions} session${sessions === 1 ? '' : 's'}`,
      `${model.invalidRows} invalid`,
      formatMs(model.lastT),
    ];
    if (model.unreadable > 0) parts.push(`${model.unreadable} unreadable lines`);
    if (model.exit) parts.push(exitWords(model.exit));
    stats.textContent = parts.join(' · ');
    stats.dataset['frames'] = String(model.rows.length);
    stats.dataset['shown'] = String(this.#visible.length);
    stats.dataset['invalid'] = String(model.invalidRows);
  }

  #onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const position = this.#selected === undefined ? -1 : this.#visible.indexOf(this.#selected);
    const next = position + (event.key === 'ArrowDown' ? 1 : -1);
    const item = this.#visible[Math.max(0, Math.min(this.#visible.length - 1, next))];
    if (item !== undefined) this.select(item);
  }
}
