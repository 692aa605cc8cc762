/**
 * `kaizen watch` and the lines of a person steering an agent (pure functions), and the watch's loop
 * over a scripted API: each poll a step of the script, the clock's sleep the only way to the next,
 * so nothing waits. Also the lines of heartbeat and activity, which say how to wait for an answer.
 */
import { describe, expect, it } from "vitest";
import { decisionLine, stoppedLine } from "../../../client/cli/commands/steering.js";
import {
  endedText,
  formatActivity,
  formatState,
  runWatch,
  stateText,
  usageText,
  type WatchClock,
  type WatchOptions,
} from "../../../client/cli/commands/watch.js";
import { activityRecorded, heartbeatLine } from "../../../client/cli/commands/work.js";
import { createOutput } from "../../../client/cli/output.js";
import { createKaizenClient, type Schema } from "../../../client/client.js";
import { activeDispatch } from "../../helpers/dispatches.js";

type Dispatch = Schema<"Dispatch">;
type Activity = Schema<"Activity">;

const DSP = "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V30";
const ISS = "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V31";

const dispatch: Dispatch = activeDispatch({ id: DSP, issueId: ISS });

function activity(sequence: number, fields: Partial<Activity> = {}): Activity {
  return {
    id: `act_${sequence}`,
    dispatchId: DSP,
    issueId: ISS,
    sequence,
    type: "action",
    body: `step ${sequence}`,
    data: null,
    authorType: "agent",
    authorName: "agent-1",
    createdAt: `2026-11-25T14:05:${String(sequence).padStart(2, "0")}.000Z`,
    ...fields,
  };
}

const usage = (fields: Partial<NonNullable<Dispatch["usage"]>>) => ({
  inputTokens: null,
  outputTokens: null,
  costUsd: null,
  model: null,
  ...fields,
});

describe("usageText", () => {
  it("says the cost against the budget, the tokens and the model", () => {
    expect(
      usageText({ usage: usage({ costUsd: 0.42, inputTokens: 1200, outputTokens: 80, model: "m" }), costBudgetUsd: 1 }),
    ).toBe("$0.42 of its $1 budget, 1200 tokens in, 80 out, model m");
    expect(usageText({ usage: usage({ outputTokens: 80 }), costBudgetUsd: null })).toBe("80 tokens out");
    expect(usageText({ usage: null, costBudgetUsd: 2.5 })).toBe("no cost reported yet, budget $2.5");
    expect(usageText({ usage: usage({ costUsd: 0.1 }), costBudgetUsd: null })).toBe("$0.1");
    expect(usageText({ usage: null, costBudgetUsd: null })).toBeUndefined();
  });
});

describe("stateText and endedText", () => {
  it("says what a waiting dispatch waits for and how a person answers", () => {
    expect(stateText({ ...dispatch, status: "waiting", waitingFor: "input" })).toBe(
      `${DSP} waits for input: kaizen answer ${DSP} "…" answers it`,
    );
    expect(
      stateText({ ...dispatch, status: "waiting", waitingFor: "approval", planApproved: false, costBudgetUsd: 1 }),
    ).toBe(
      `${DSP} waits for approval of its plan: kaizen approve ${DSP}, or kaizen reject ${DSP} "what to change"; no cost reported yet, budget $1`,
    );
  });

  it("says who works on an active dispatch, and whether its plan was approved", () => {
    expect(stateText(dispatch)).toBe(`${DSP} is active (agent agent-1)`);
    expect(stateText({ ...dispatch, planApproved: true, usage: usage({ costUsd: 0.2 }) })).toBe(
      `${DSP} is active (agent agent-1, plan approved); $0.2`,
    );
  });

  it("says how a dispatch ended", () => {
    const outcome = { summary: "Retried", commits: [], pullRequests: [], reviewRounds: 0, verification: null };
    expect(endedText({ ...dispatch, status: "completed", outcome })).toBe(`${DSP} completed: Retried`);
    expect(endedText({ ...dispatch, status: "failed", outcome: { ...outcome, summary: "No network" } })).toBe(
      `${DSP} failed: No network`,
    );
    expect(endedText({ ...dispatch, status: "stopped", stopReason: "Wrong approach" })).toBe(
      `${DSP} was stopped: Wrong approach`,
    );
    expect(endedText({ ...dispatch, status: "expired" })).toContain("expired: its lease ran out");
    expect(endedText({ ...dispatch, status: "released" })).toContain("was released");
  });

  it("times a state line with the clock, in UTC", () => {
    expect(formatState(dispatch, new Date("2026-11-25T14:07:00.000Z"), false)).toBe(
      `14:07:00  ${DSP} is active (agent agent-1)`,
    );
  });
});

describe("formatActivity", () => {
  it("prints time, sequence, type, author and body, further lines indented", () => {
    expect(formatActivity(activity(3, { type: "elicitation", body: "Keep the v1 endpoint?" }), false)).toBe(
      "14:05:03 #3 elicitation  agent-1: Keep the v1 endpoint?",
    );
    expect(formatActivity(activity(4, { type: "plan", body: "1. Add a retry\n\n2. Test it\n" }), false)).toBe(
      "14:05:04 #4 plan  agent-1: 1. Add a retry\n\n    2. Test it",
    );
  });

  it("names a person's message and the decision it carries", () => {
    const message = { type: "message" as const, authorType: "human" as const, authorName: null };
    expect(formatActivity(activity(5, { ...message, body: "Yes, keep it" }), false)).toBe(
      "14:05:05 #5 message  a person: Yes, keep it",
    );
    expect(
      formatActivity(activity(6, { ...message, body: "Plan approved.", data: { decision: "approved" } }), false),
    ).toBe("14:05:06 #6 message (approved)  a person: Plan approved.");
  });
});

describe("the lines of heartbeat and activity", () => {
  it("a heartbeat of a waiting dispatch says its lease stays paused", () => {
    expect(heartbeatLine(dispatch)).toBe(`Lease of ${DSP} extended until 2026-11-25T14:30:00.000Z`);
    expect(heartbeatLine({ ...dispatch, status: "waiting", waitingFor: "input" })).toBe(
      `${DSP} waits for a person's answer: its lease stays paused (until 2026-11-25T14:30:00.000Z at the latest)`,
    );
  });

  it("a question or a plan says how to wait for the answer", () => {
    expect(activityRecorded(activity(2))).toBe(`Activity 2 of ${DSP} recorded (action)`);
    expect(activityRecorded(activity(3, { type: "elicitation" }))).toBe(
      `Activity 3 of ${DSP} recorded (elicitation): the dispatch waits for a person's answer; kaizen watch ${DSP} --after 3 --until-answer waits for it`,
    );
    expect(activityRecorded(activity(4, { type: "plan" }))).toContain("on a project with plan approval");
  });
});

describe("the lines of approve, reject and stop", () => {
  it("a decision and a stop say what the agent does now and where the issue went", () => {
    const message = activity(7, { type: "message", authorType: "human" });
    expect(decisionLine("approve", { dispatch, activity: message })).toBe(
      `Approved the plan of ${DSP} (message 7): it works again, and may complete once done`,
    );
    expect(decisionLine("reject", { dispatch, activity: message })).toContain("posts a new plan");
    const stopped = { ...dispatch, status: "stopped" as const, stopReason: "Wrong approach" };
    const issue = { identifier: "KZN-7", status: "backlog" } as Schema<"Issue">;
    expect(stoppedLine({ dispatch: stopped, issue })).toBe(`Stopped ${DSP} (Wrong approach); KZN-7 is backlog`);
  });
});

/** The API as a script: each poll reads the current step's dispatch and activities. */
function scriptedApi(steps: { dispatch: Dispatch; activities: Activity[] }[]) {
  let step = 0;
  const requests: string[] = [];
  const current = () => steps[Math.min(step, steps.length - 1)] as (typeof steps)[number];
  const kaizen = createKaizenClient({
    baseUrl: "http://kaizen.test",
    token: "kaizen_key",
    attempts: 1,
    fetch: async (request) => {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      const json = (data: unknown, extra: Record<string, unknown> = {}) =>
        new Response(JSON.stringify({ data, ...extra }), { headers: { "Content-Type": "application/json" } });
      if (url.pathname === `/api/dispatch/${DSP}`) return json(current().dispatch);
      if (url.pathname === `/api/dispatch/${DSP}/activities`) {
        const after = Number(url.searchParams.get("after"));
        const limit = Number(url.searchParams.get("limit"));
        const later = current().activities.filter((each) => each.sequence > after);
        return json(later.slice(0, limit), { pagination: { page: 1, limit, total: later.length } });
      }
      return new Response(JSON.stringify({ error: "Not found" }), { status: 404 });
    },
  });
  const sleeps: number[] = [];
  const clock: WatchClock = {
    now: () => new Date(`2026-11-25T14:10:0${step}.000Z`),
    sleep: async (ms) => {
      sleeps.push(ms);
      step++;
    },
  };
  return { kaizen, clock, requests, sleeps };
}

function buffered(json = false) {
  let stdout = "";
  const output = createOutput({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => undefined },
    env: {},
    json,
  });
  return { output, lines: () => stdout.trimEnd().split("\n") };
}

const options: WatchOptions = { dispatchId: DSP, after: 0, untilAnswer: false, readsDispatch: true, intervalMs: 2000 };

describe("runWatch", () => {
  const question = activity(2, { type: "elicitation", body: "Keep v1?" });
  const answer = activity(3, { type: "message", authorType: "human", authorName: null, body: "Yes" });
  const steps = [
    { dispatch, activities: [activity(1)] },
    {
      dispatch: { ...dispatch, status: "waiting" as const, waitingFor: "input" as const },
      activities: [activity(1), question],
    },
    // Nothing changed: nothing printed.
    {
      dispatch: { ...dispatch, status: "waiting" as const, waitingFor: "input" as const },
      activities: [activity(1), question],
    },
    { dispatch: { ...dispatch, usage: usage({ costUsd: 0.3 }) }, activities: [activity(1), question, answer] },
    {
      dispatch: { ...dispatch, status: "stopped" as const, stopReason: "Enough", usage: usage({ costUsd: 0.3 }) },
      activities: [activity(1), question, answer, activity(4)],
    },
  ];

  it("prints new activities and changes of the dispatch as they come, and ends with how the dispatch ended", async () => {
    const api = scriptedApi(steps);
    const { output, lines } = buffered();
    const end = await runWatch(api.kaizen, options, output, new AbortController().signal, api.clock);
    expect(end).toMatchObject({ reason: "ended", dispatch: { status: "stopped" } });
    expect(lines()).toEqual([
      `Watching ${DSP} (issue ${ISS}, agent agent-1); Ctrl-C stops.`,
      `14:10:00  ${DSP} is active (agent agent-1)`,
      "14:05:01 #1 action  agent-1: step 1",
      `14:10:01  ${DSP} waits for input: kaizen answer ${DSP} "…" answers it`,
      "14:05:02 #2 elicitation  agent-1: Keep v1?",
      `14:10:03  ${DSP} is active (agent agent-1); $0.3`,
      "14:05:03 #3 message  a person: Yes",
      "14:05:04 #4 action  agent-1: step 4",
      `14:10:04  ${DSP} was stopped: Enough; $0.3`,
    ]);
    // It waited the interval between polls, and asked only for what it had not seen.
    expect(api.sleeps).toEqual([2000, 2000, 2000, 2000]);
    expect(api.requests.filter((request) => request.includes("/activities"))).toEqual(
      [0, 1, 2, 2, 3].map((after) => `GET /api/dispatch/${DSP}/activities?after=${after}&limit=100`),
    );
  });

  it("with --json prints one JSON object a line, the API's data", async () => {
    const api = scriptedApi(steps);
    const { output, lines } = buffered(true);
    await runWatch(api.kaizen, options, output, new AbortController().signal, api.clock);
    const printed = lines().map(
      (line) => JSON.parse(line) as { kind: string; dispatch?: Dispatch; activity?: Activity },
    );
    expect(printed.map((line) => `${line.kind} ${line.dispatch?.status ?? line.activity?.sequence}`)).toEqual([
      "dispatch active",
      "activity 1",
      "dispatch waiting",
      "activity 2",
      "dispatch active",
      "activity 3",
      "dispatch stopped",
      "activity 4",
    ]);
    expect(printed[2]?.dispatch).toEqual(steps[1]?.dispatch);
  });

  it("--until-answer ends at a person's message after --after, reading only activities with a token", async () => {
    const api = scriptedApi(steps);
    const { output, lines } = buffered();
    const end = await runWatch(
      api.kaizen,
      { ...options, after: 2, untilAnswer: true, readsDispatch: false },
      output,
      new AbortController().signal,
      api.clock,
    );
    expect(end).toEqual({ reason: "answered", activity: answer });
    expect(lines()).toEqual([
      `Watching the activities of ${DSP} (a dispatch token reads them, not the dispatch itself); Ctrl-C stops.`,
      "14:05:03 #3 message  a person: Yes",
    ]);
    expect(api.requests.every((request) => request.includes("/activities"))).toBe(true);
  });

  it("reads every page of a long backlog before it sleeps", async () => {
    const many = Array.from({ length: 150 }, (_, i) => activity(i + 1));
    const api = scriptedApi([{ dispatch: { ...dispatch, status: "completed" }, activities: many }]);
    const { output, lines } = buffered(true);
    await runWatch(api.kaizen, options, output, new AbortController().signal, api.clock);
    expect(lines()).toHaveLength(151);
    expect(api.sleeps).toEqual([]);
  });

  it("stops when interrupted, without waiting for the dispatch to end", async () => {
    const api = scriptedApi([{ dispatch, activities: [] }]);
    const controller = new AbortController();
    const clock: WatchClock = {
      now: api.clock.now,
      sleep: async () => controller.abort(),
    };
    const { output } = buffered();
    expect(await runWatch(api.kaizen, options, output, controller.signal, clock)).toEqual({ reason: "interrupted" });
  });
});
