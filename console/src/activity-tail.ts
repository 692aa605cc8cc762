/**
 * @module console/activity-tail — following what an agent does on a dispatch
 * (docs/api.md#activities): the activities so far, then only the later ones, asked for every
 * `intervalMs` while the dispatch is open and the tab is seen. Asking for those after the last
 * sequence seen costs one small call however long the dispatch runs; an ended dispatch is read
 * once. No DOM and no framework here, so the unit tests drive it with fake timers; the hook that
 * renders it lives with the issue page's dispatches (./pages/issue-dispatch.tsx).
 */

/** How often the issue page asks for an open dispatch's new activities. */
export const ACTIVITY_POLL_MS = 2_000;
/** Activities per call: the API's largest page. */
export const ACTIVITY_PAGE = 100;

/** What the tail needs of an activity. */
export interface Sequenced {
  sequence: number;
}

/** One answer of `GET /api/dispatch/:id/activities?after=`: a page and how many follow `after` in all. */
export interface ActivityPage<A> {
  data: A[];
  total: number;
}

export interface TailState<A> {
  /** The activities seen so far, oldest first, each sequence once. */
  activities: A[];
  /** The last call's failure, until a call succeeds again. */
  error: unknown;
  /** Whether the first read answered. */
  loaded: boolean;
}

export interface TailOptions<A extends Sequenced> {
  /** Reads the activities after `after` (at most {@link ACTIVITY_PAGE}). */
  fetchAfter(after: number): Promise<ActivityPage<A>>;
  /** Whether the page is seen now: a hidden tab does not poll. */
  visible(): boolean;
  /** Called after each read that changed something; `added` counts the activities new to it. */
  onUpdate(state: TailState<A>, added: number): void;
  intervalMs?: number;
  /** The timers to wait with (the unit tests' fake ones, else the global ones). */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The activities of one dispatch, kept up to date while it is `live` (open).
 * @example const tail = new ActivityTail({ fetchAfter, visible: () => true, onUpdate: render }); tail.start(true);
 */
export class ActivityTail<A extends Sequenced> {
  private readonly options: TailOptions<A>;
  private readonly intervalMs: number;
  private state: TailState<A> = { activities: [], error: undefined, loaded: false };
  private live = false;
  private stopped = false;
  private timer: unknown;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(options: TailOptions<A>) {
    this.options = options;
    this.intervalMs = options.intervalMs ?? ACTIVITY_POLL_MS;
  }

  /** The last sequence seen (0 before any). */
  get last(): number {
    return this.state.activities.at(-1)?.sequence ?? 0;
  }

  get current(): TailState<A> {
    return this.state;
  }

  /** Reads what there is now and, while `live`, keeps asking for more. */
  start(live: boolean): Promise<void> {
    this.live = live;
    return this.read();
  }

  /**
   * The dispatch opened or ended: an end reads once more (what its agent said last), then stops;
   * an open dispatch polls again.
   */
  setLive(live: boolean): void {
    if (live === this.live || this.stopped) return;
    this.live = live;
    this.clear();
    void this.read();
  }

  /** The tab was hidden or shown again: shown, a live tail reads at once and polls again. */
  visibilityChanged(): void {
    if (this.stopped) return;
    if (!this.options.visible()) {
      this.clear();
      return;
    }
    if (this.live && this.timer === undefined && !this.running) void this.read();
  }

  /** Reads now (after a person's answer, say), whatever the timer says. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.clear();
    return this.read();
  }

  /** Stops for good: no call is made after this one. */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    if (this.timer === undefined) return;
    (this.options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = undefined;
  }

  /** One read at a time: a read asked for while one runs follows it. */
  private read(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.readAll();
      } while (this.again && !this.stopped);
      this.running = undefined;
      this.schedule();
    })();
    return this.running;
  }

  /** Reads page after page until it has every activity there is now. */
  private async readAll(): Promise<void> {
    let added = 0;
    let error: unknown;
    try {
      for (;;) {
        const after = this.last;
        const page = await this.options.fetchAfter(after);
        if (this.stopped) return;
        const fresh = page.data.filter((activity) => activity.sequence > this.last);
        fresh.sort((a, b) => a.sequence - b.sequence);
        if (fresh.length > 0) this.state = { ...this.state, activities: [...this.state.activities, ...fresh] };
        added += fresh.length;
        if (fresh.length === 0 || page.total <= page.data.length) break;
      }
    } catch (thrown) {
      if (this.stopped) return;
      error = thrown;
    }
    const changed = added > 0 || !this.state.loaded || error !== this.state.error;
    this.state = { ...this.state, error, loaded: this.state.loaded || error === undefined };
    if (changed) this.options.onUpdate(this.state, added);
  }

  private schedule(): void {
    if (this.stopped || !this.live || this.timer !== undefined || !this.options.visible()) return;
    const set = this.options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.timer = set(() => {
      this.timer = undefined;
      void this.read();
    }, this.intervalMs);
  }
}
