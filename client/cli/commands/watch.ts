/**
 * @module client/cli/commands/watch — `kaizen watch`: a dispatch's activities as they arrive (its
 * agent's thoughts, actions, questions and plans, people's messages), and what becomes of the
 * dispatch itself (active, waiting, its usage against its budget), until it ends or a person answers.
 * It polls the API (docs/api.md#activities); the clock it sleeps on is passed in, so tests do not wait.
 */
import type { KaizenClient, Schema } from "../../client.js";
import { type Output, paint, type Style, statusStyle } from "../output.js";

type Dispatch = Schema<"Dispatch">;
type Activity = Schema<"Activity">;

/** Activities read per request (the API's largest page). */
const PAGE = 100;

/** Whether a dispatch is still open: its agent works (`active`) or waits for a person (`waiting`). */
export function isOpen(dispatch: Pick<Dispatch, "status">): boolean {
  return dispatch.status === "active" || dispatch.status === "waiting";
}

/** `HH:MM:SS` of an ISO timestamp (UTC). */
function clockTime(iso: string): string {
  return /T(\d\d:\d\d:\d\d)/.exec(iso)?.[1] ?? iso;
}

/** Dollars as the API gives them: `$0.42`, `$1`. */
function dollars(value: number): string {
  return `$${value}`;
}

/**
 * What a dispatch reported it cost, against its budget, in a few words; undefined when it reported
 * nothing and has no budget.
 * @example usageText({ usage: { costUsd: 0.42, inputTokens: 1200, outputTokens: null, model: "m" }, costBudgetUsd: 1 }) // "$0.42 of its $1 budget, 1200 tokens in, model m"
 */
export function usageText(dispatch: Pick<Dispatch, "usage" | "costBudgetUsd">): string | undefined {
  const { usage, costBudgetUsd: budget } = dispatch;
  const cost = usage?.costUsd ?? null;
  const parts: string[] = [];
  if (cost !== null && budget !== null) parts.push(`${dollars(cost)} of its ${dollars(budget)} budget`);
  else if (cost !== null) parts.push(dollars(cost));
  else if (budget !== null) parts.push(`no cost reported yet, budget ${dollars(budget)}`);
  const tokens = [
    usage?.inputTokens == null ? undefined : `${usage.inputTokens} tokens in`,
    usage?.outputTokens == null ? undefined : `${usage.outputTokens} ${usage?.inputTokens == null ? "tokens " : ""}out`,
  ].filter((part) => part !== undefined);
  if (tokens.length > 0) parts.push(tokens.join(", "));
  if (usage?.model) parts.push(`model ${usage.model}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/**
 * How a dispatch ended, in one line: its outcome's summary, why it was stopped, or what became of its lease.
 * @example endedText(dispatch) // "dsp_… was stopped: Wrong approach"
 */
export function endedText(dispatch: Dispatch): string {
  const summary = dispatch.outcome?.summary ? `: ${dispatch.outcome.summary}` : "";
  switch (dispatch.status) {
    case "completed":
      return `${dispatch.id} completed${summary}`;
    case "failed":
      return `${dispatch.id} failed${summary}`;
    case "stopped":
      return `${dispatch.id} was stopped: ${dispatch.stopReason ?? "no reason given"}`;
    case "expired":
      return `${dispatch.id} expired: its lease ran out, its issue went back to the queue`;
    case "released":
      return `${dispatch.id} was released: its issue went back untouched`;
    default:
      return `${dispatch.id} is ${dispatch.status}`;
  }
}

/**
 * Where a dispatch stands, in one line: working or waiting (and how a person answers), or how it
 * ended; then what it reported it cost against its budget.
 * @example stateText(dispatch) // "dsp_… waits for input: kaizen answer dsp_… \"…\" answers it; $0.42 of its $1 budget"
 */
export function stateText(dispatch: Dispatch): string {
  let state: string;
  if (dispatch.status === "waiting" && dispatch.waitingFor === "approval") {
    state = `${dispatch.id} waits for approval of its plan: kaizen approve ${dispatch.id}, or kaizen reject ${dispatch.id} "what to change"`;
  } else if (dispatch.status === "waiting") {
    state = `${dispatch.id} waits for input: kaizen answer ${dispatch.id} "…" answers it`;
  } else if (dispatch.status === "active") {
    const plan =
      dispatch.planApproved === null ? "" : dispatch.planApproved ? ", plan approved" : ", plan not approved";
    state = `${dispatch.id} is active (agent ${dispatch.agent}${plan})`;
  } else {
    state = endedText(dispatch);
  }
  const usage = usageText(dispatch);
  return usage ? `${state}; ${usage}` : state;
}

/** What of a dispatch `watch` reports when it changes: not its lease, which every heartbeat moves. */
function stateKey(dispatch: Dispatch): string {
  const { status, waitingFor, planApproved, usage, costBudgetUsd, stopReason } = dispatch;
  return JSON.stringify([status, waitingFor, planApproved, usage, costBudgetUsd, stopReason]);
}

/** The colours of activity types: a question or a plan waits for someone, an error went wrong, a message is a person's. */
const ACTIVITY_STYLES: Partial<Record<string, Style>> = {
  elicitation: "yellow",
  plan: "yellow",
  error: "red",
  message: "cyan",
};

/** A person's decision on a plan that a message carries (`data.decision`), if any. */
function decisionOf(activity: Activity): string | undefined {
  const decision = activity.data?.decision;
  return typeof decision === "string" ? decision : undefined;
}

/**
 * An activity as `watch` prints it: the time (UTC), its sequence, its type (with a plan's decision),
 * its author and its body, each further line of the body indented under the first.
 * @example formatActivity(activity, false) // "14:05:09  #3 elicitation  agent-1: Keep the v1 endpoint?"
 */
export function formatActivity(activity: Activity, colour: boolean): string {
  const decision = decisionOf(activity);
  const type = decision ? `${activity.type} (${decision})` : activity.type;
  const author = activity.authorName ?? (activity.authorType === "human" ? "a person" : "the agent");
  const [first = "", ...rest] = activity.body.trimEnd().split(/\r?\n/);
  const head = [
    paint(colour, "dim", clockTime(activity.createdAt)),
    ` #${activity.sequence} `,
    paint(colour, ACTIVITY_STYLES[activity.type] ?? "bold", type),
    `  ${author}: ${first}`,
  ].join("");
  return [head, ...rest.map((line) => (line ? `    ${line}` : ""))].join("\n");
}

/**
 * A line of `watch` about the dispatch itself: the time it was seen (UTC) and where it stands.
 * @example formatState(dispatch, new Date(), false) // "14:05:11  dsp_… is active (agent agent-1)"
 */
export function formatState(dispatch: Dispatch, now: Date, colour: boolean): string {
  const style: Style | undefined = dispatch.status === "waiting" ? "yellow" : statusStyle(dispatch.status);
  return `${paint(colour, "dim", clockTime(now.toISOString()))}  ${paint(colour, style, stateText(dispatch))}`;
}

/** What `watch` is asked to do. */
export interface WatchOptions {
  dispatchId: string;
  /** Print only activities after this sequence (0: from the first). */
  after: number;
  /** End once a person answers (a message, an approval or a rejection) after `after`. */
  untilAnswer: boolean;
  /**
   * Whether the credential may read the dispatch itself (the service key may; a dispatch token may
   * read only its activities, so with one `watch` shows activities and cannot see the dispatch end).
   */
  readsDispatch: boolean;
  /** The wait between polls. */
  intervalMs: number;
}

/** What `watch` waits on: the time now and a sleep that an abort cuts short. */
export interface WatchClock {
  now(): Date;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock: `setTimeout`, cut short by the signal. */
export const SYSTEM_CLOCK: WatchClock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    }),
};

/** How a `watch` ended: the dispatch ended, a person answered, or it was interrupted (Ctrl-C). */
export type WatchEnd =
  | { reason: "ended"; dispatch: Dispatch }
  | { reason: "answered"; activity: Activity }
  | { reason: "interrupted" };

/**
 * `kaizen watch`: polls the dispatch (when the credential may read it) and its activities after the
 * last one seen, every `intervalMs`, printing each new activity and each change of the dispatch's
 * status, what it waits for, its plan's approval and its usage; resolves once the dispatch has ended
 * (with every activity it had), once a person answered (`untilAnswer`), or once `signal` is aborted.
 * Human lines go to stdout; with `--json` each is one JSON object a line: `{"kind": "dispatch",
 * "dispatch": …}` or `{"kind": "activity", "activity": …}`, the API's own data.
 * @example await runWatch(kaizen, { dispatchId, after: 0, untilAnswer: false, readsDispatch: true, intervalMs: 2000 }, output, signal);
 */
export async function runWatch(
  kaizen: KaizenClient,
  options: WatchOptions,
  output: Output,
  signal: AbortSignal,
  clock: WatchClock = SYSTEM_CLOCK,
): Promise<WatchEnd> {
  const id = options.dispatchId;
  let after = options.after;
  let shown: string | undefined;
  let greeted = false;
  for (;;) {
    // The dispatch first, its activities after: once it has ended, the activities read next are all it has.
    let dispatch: Dispatch | undefined;
    if (options.readsDispatch) {
      const { data } = await kaizen.GET("/api/dispatch/{id}", { params: { path: { id } } });
      dispatch = data?.data;
    }
    if (!greeted && !output.json) {
      output.out(
        dispatch
          ? `Watching ${id} (issue ${dispatch.issueId}, agent ${dispatch.agent}); Ctrl-C stops.`
          : `Watching the activities of ${id} (a dispatch token reads them, not the dispatch itself); Ctrl-C stops.`,
      );
    }
    greeted = true;
    if (dispatch && stateKey(dispatch) !== shown) {
      shown = stateKey(dispatch);
      if (output.json) output.out(JSON.stringify({ kind: "dispatch", dispatch }));
      // An end is said once, after the activities that led to it.
      else if (isOpen(dispatch)) output.out(formatState(dispatch, clock.now(), output.colour));
    }
    for (;;) {
      const { data } = await kaizen.GET("/api/dispatch/{id}/activities", {
        params: { path: { id }, query: { after: String(after), limit: PAGE } },
      });
      const activities = data?.data ?? [];
      for (const activity of activities) {
        output.out(
          output.json ? JSON.stringify({ kind: "activity", activity }) : formatActivity(activity, output.colour),
        );
        after = activity.sequence;
        if (options.untilAnswer && activity.authorType === "human") return { reason: "answered", activity };
      }
      if (activities.length < PAGE) break;
    }
    if (dispatch && !isOpen(dispatch)) {
      if (!output.json) output.out(formatState(dispatch, clock.now(), output.colour));
      return { reason: "ended", dispatch };
    }
    if (signal.aborted) return { reason: "interrupted" };
    await clock.sleep(options.intervalMs, signal);
    if (signal.aborted) return { reason: "interrupted" };
  }
}
