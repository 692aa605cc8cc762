/**
 * @module client/runner/activity-batcher — the activities a command's output makes, held back so
 * that a dispatch gets at most one activity call per interval: the API takes one activity a call
 * (docs/api.md#activities), so drafts that arrive together are merged into one.
 */
import { type ActivityDraft, BODY_LIMIT, type LineSource } from "./agent-output.js";

/** An activity ready to post: one or more drafts of one type and source, merged. */
export interface MergedActivity {
  type: ActivityDraft["type"];
  body: string;
  /** Where the lines came from (`mixed` for a backlog sent at once, `runner` for the note of lines left out) and how many. */
  data: { source: LineSource | "mixed" | "runner"; parts: number };
}

/** The most text that waits for its call: past it the oldest drafts are left out (and the next call says how many). */
export const PENDING_LIMIT = 100_000;

/** Past this many runs of different kinds waiting (half a minute behind, at a call a second), the next call carries all of them at once. */
export const BACKLOG_RUNS = 30;

/**
 * Drafts waiting for their call. {@link take} answers the next activity to post when a call is due
 * (none was made in the last `intervalMs` on `now`'s clock): the leading drafts of one type and
 * source, joined line by line up to the body limit; when more than thirty such runs wait, all of them
 * at once as one `action` whose lines name their types, so a chatty agent never falls behind.
 * @example const batcher = new ActivityBatcher(1000, () => Date.now()); batcher.add(draft); const next = batcher.take();
 */
export class ActivityBatcher {
  private readonly queue: ActivityDraft[] = [];
  private lastCall = Number.NEGATIVE_INFINITY;
  private pendingChars = 0;
  /** Drafts left out since the last call, the queue being full. */
  private dropped = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /** Queues `draft`; when the queue holds more than {@link PENDING_LIMIT} characters, its oldest drafts are left out. */
  add(draft: ActivityDraft): void {
    this.queue.push(draft);
    this.pendingChars += draft.body.length;
    while (this.pendingChars > PENDING_LIMIT && this.queue.length > 1) {
      this.pendingChars -= this.queue.shift()?.body.length ?? 0;
      this.dropped++;
    }
  }

  /** Drafts still waiting (and the note of drafts left out, if any). */
  get pending(): number {
    return this.queue.length + (this.dropped > 0 ? 1 : 0);
  }

  /** When the next call may be made, on the batcher's clock. */
  dueAt(): number {
    return this.lastCall + this.intervalMs;
  }

  /** The next activity to post, if one waits and a call is due; taking it counts as the call. */
  take(): MergedActivity | undefined {
    const first = this.queue[0];
    if ((!first && this.dropped === 0) || this.now() < this.dueAt()) return undefined;
    this.lastCall = this.now();
    if (this.dropped > 0 || !first) {
      const dropped = this.dropped;
      this.dropped = 0;
      const body = `${dropped} earlier pieces of output were left out: they came faster than one activity a call can carry.`;
      return { type: "action", body, data: { source: "runner", parts: dropped } };
    }
    if (runsIn(this.queue) > BACKLOG_RUNS) return this.mergeAll();
    const run: ActivityDraft[] = [];
    let length = -1;
    for (const draft of this.queue) {
      if (draft.type !== first.type || draft.source !== first.source) break;
      if (run.length > 0 && length + 1 + draft.body.length > BODY_LIMIT) break;
      run.push(draft);
      length += 1 + draft.body.length;
    }
    this.queue.splice(0, run.length);
    for (const draft of run) this.pendingChars -= draft.body.length;
    return {
      type: first.type,
      body: run.map((d) => d.body).join("\n"),
      data: { source: first.source, parts: run.length },
    };
  }

  /** Every waiting draft in one `action`, each line headed by its type, cut to the body limit. */
  private mergeAll(): MergedActivity {
    const lines: string[] = [];
    let length = -1;
    let parts = 0;
    for (const draft of this.queue) {
      const line = `[${draft.type}] ${draft.body}`;
      if (parts > 0 && length + 1 + line.length > BODY_LIMIT) break;
      lines.push(line);
      length += 1 + line.length;
      parts++;
    }
    for (const draft of this.queue.splice(0, parts)) this.pendingChars -= draft.body.length;
    return { type: "action", body: lines.join("\n").slice(0, BODY_LIMIT), data: { source: "mixed", parts } };
  }
}

/** How many runs of one type and source follow each other in `drafts`. */
function runsIn(drafts: ActivityDraft[]): number {
  let runs = 0;
  let previous: ActivityDraft | undefined;
  for (const draft of drafts) {
    if (!previous || previous.type !== draft.type || previous.source !== draft.source) runs++;
    previous = draft;
  }
  return runs;
}
