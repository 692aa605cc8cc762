/** `kaizen events`: the `--events` list as typed, and how `tail` prints each event it receives (pure functions). */
import { styleText } from "node:util";
import { describe, expect, it } from "vitest";
import { formatRetry, parseEventList } from "../../../client/cli/commands/events-format.js";
import { eventSummary, formatEventLine } from "../../../client/cli/commands/events-tail.js";
import { UsageError } from "../../../client/cli/runtime.js";
import { EVENT_TYPES } from "../../../core/src/events/schemas.js";

/** The width `tail` pads event types to: the longest type's. */
const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length));

describe("parseEventList", () => {
  it("takes names separated by commas, spaces around them, the flag repeated, each name once", () => {
    expect(parseEventList("issue.created, dispatch.failed")).toEqual(["issue.created", "dispatch.failed"]);
    expect(parseEventList(["issue.created", "experiment.decided,issue.created"])).toEqual([
      "issue.created",
      "experiment.decided",
    ]);
  });

  it("names the first unknown event and lists the valid ones; an empty list is refused too", () => {
    expect(() => parseEventList("issue.created,issue.closed")).toThrow(UsageError);
    expect(() => parseEventList("issue.created,issue.closed")).toThrow(
      `--events: issue.closed is not an event type; the types are ${EVENT_TYPES.join(", ")}`,
    );
    expect(() => parseEventList(" , ")).toThrow(`--events needs at least one of: ${EVENT_TYPES.join(", ")}`);
  });
});

const dispatch = { id: "dsp_1", agent: "agent-1", issueId: "iss_1", outcome: { summary: "tests fail" } };

/** A merged fix's watch, as `issue.verified` and `issue.regressed` carry it (docs/api.md#verification). */
const watch = {
  mergedAt: "2026-11-25T09:23:00.000Z",
  until: "2026-11-28T09:23:00.000Z",
  regressedAt: null,
  signalId: null,
  dispatchId: "dsp_1",
};

describe("eventSummary", () => {
  it.each([
    [
      "issue.created",
      { issue: { identifier: "KZN-1", title: "Checkout button does nothing" } },
      "KZN-1 created: Checkout button does nothing",
    ],
    [
      "issue.status_changed",
      { issue: { identifier: "KZN-12" }, from: "todo", to: "in_progress" },
      "KZN-12 todo → in_progress",
    ],
    ["dispatch.claimed", { dispatch }, "dispatch dsp_1 by agent-1 claimed iss_1"],
    ["dispatch.completed", { dispatch }, "dispatch dsp_1 by agent-1 completed"],
    ["dispatch.failed", { dispatch }, "dispatch dsp_1 by agent-1 failed: tests fail"],
    ["dispatch.expired", { dispatch: { ...dispatch, outcome: null } }, "dispatch dsp_1 by agent-1 expired"],
    ["dispatch.waiting", { dispatch, waitingFor: "input" }, "dispatch dsp_1 by agent-1 waits for input"],
    [
      "dispatch.waiting",
      { dispatch: { ...dispatch, waitingFor: "approval" } },
      "dispatch dsp_1 by agent-1 waits for approval",
    ],
    [
      "dispatch.stopped",
      { dispatch, reason: "Wrong approach", by: "api" },
      "dispatch dsp_1 by agent-1 stopped by api: Wrong approach",
    ],
    [
      "dispatch.stopped",
      { dispatch, reason: "Cost budget passed", by: "automation" },
      "dispatch dsp_1 by agent-1 stopped by automation: Cost budget passed",
    ],
    [
      "prompt.needs_attention",
      { templateId: "tpl_1", version: 3, reviewScore: 3.125, reviewCount: 4, improvementIssueId: "iss_2" },
      "template tpl_1 v3 needs attention: score 3.13 over 4 reviews, improvement task iss_2",
    ],
    ["experiment.decided", { experiment: { id: "exp_1", status: "promoted" } }, "experiment exp_1 promoted"],
    [
      "issue.verified",
      { issue: { identifier: "KZN-7" }, verification: { ...watch, status: "verified" } },
      "KZN-7 verified, watched until 2026-11-28 09:23 (merged 2026-11-25 09:23)",
    ],
    [
      "issue.regressed",
      {
        issue: { identifier: "KZN-7" },
        verification: { ...watch, status: "regressed", regressedAt: "2026-11-26T10:00:00.000Z", signalId: "sig_1" },
      },
      "KZN-7 regressed 2026-11-26 10:00 (merged 2026-11-25 09:23)",
    ],
    ["issue.verified", { issue: { identifier: "KZN-7" } }, "KZN-7 verified"],
    ["issue.archived", { issue: { id: "iss_3" } }, '{"issue":{"id":"iss_3"}}'],
  ])("%s", (type, data, summary) => {
    expect(eventSummary({ type, data })).toBe(summary);
  });

  it("shows ? for fields an event lacks rather than failing", () => {
    expect(eventSummary({ type: "issue.status_changed", data: {} })).toBe("? ? → ?");
  });
});

describe("formatEventLine", () => {
  it("prints the time (UTC), the type padded so lines align, the summary and the event id", () => {
    const event = {
      id: "evt_1",
      type: "issue.created",
      createdAt: "2026-11-25T14:05:09.123Z",
      data: { issue: { identifier: "KZN-1", title: "A\ntitle" } },
    };
    expect(formatEventLine(event, false)).toBe("14:05:09  issue.created           KZN-1 created: A title  evt_1");
  });

  it("colours how a merged fix's watch ended: verified green, regressed red", () => {
    const event = (type: string, status: string) => ({
      id: "evt_2",
      type,
      createdAt: "2026-11-28T09:24:00.000Z",
      data: { issue: { identifier: "KZN-7" }, verification: { ...watch, status } },
    });
    expect(formatEventLine(event("issue.verified", "verified"), true)).toContain(
      styleText("green", "issue.verified".padEnd(TYPE_WIDTH), { validateStream: false }),
    );
    expect(formatEventLine(event("issue.regressed", "regressed"), true)).toContain(
      styleText("red", "issue.regressed".padEnd(TYPE_WIDTH), { validateStream: false }),
    );
  });
});

describe("formatEventLine's colours of dispatches", () => {
  it("a dispatch waiting for a person in yellow, a stopped one in red", () => {
    const event = (type: string, data: Record<string, unknown>) => ({
      id: "evt_3",
      type,
      createdAt: "2026-11-28T09:24:00.000Z",
      data,
    });
    expect(formatEventLine(event("dispatch.waiting", { dispatch, waitingFor: "input" }), true)).toContain(
      styleText("yellow", "dispatch.waiting".padEnd(TYPE_WIDTH), { validateStream: false }),
    );
    expect(formatEventLine(event("dispatch.stopped", { dispatch, reason: "x", by: "api" }), true)).toContain(
      styleText("red", "dispatch.stopped".padEnd(TYPE_WIDTH), { validateStream: false }),
    );
  });
});

describe("formatRetry", () => {
  const delivery = {
    id: "dlv_1",
    destinationId: "dst_1",
    eventId: "evt_1",
    eventType: "issue.created" as const,
    createdAt: "2026-11-25T14:00:00.000Z",
    updatedAt: "2026-11-25T14:05:00.000Z",
  };
  const attempt = { at: "2026-11-25T14:05:00.000Z", durationMs: 12, trigger: "manual" as const };

  it("says how the attempt went and where that leaves the delivery", () => {
    expect(
      formatRetry({
        ...delivery,
        status: "succeeded",
        nextAttemptAt: null,
        attempts: [{ ...attempt, outcome: "succeeded", responseStatus: 204, error: null }],
      }),
    ).toBe("Retried dlv_1 (issue.created, evt_1): succeeded in 12 ms: HTTP 204; the delivery is succeeded.");
    expect(
      formatRetry({
        ...delivery,
        status: "pending",
        nextAttemptAt: "2026-11-25T14:35:00.000Z",
        attempts: [{ ...attempt, outcome: "failed", responseStatus: null, error: "timeout after 10 s" }],
      }),
    ).toBe(
      "Retried dlv_1 (issue.created, evt_1): failed in 12 ms: timeout after 10 s; the delivery stays pending; next automatic attempt 2026-11-25 14:35.",
    );
  });
});
