/** Which events a change of the table stands for, and the retries' backoff (pure functions). */
import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import type { ChangeRecord } from "../../../core/src/db/changes.js";
import { eventsOf } from "../../../core/src/events/derive.js";
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs } from "../../../core/src/events/event-deliveries.js";
import { deliveryId } from "../../../core/src/events/keys.js";
import { signature, verifySignature } from "../../../core/src/events/signing.js";
import { versionReviewsKey } from "../../../core/src/templates/keys.js";

const AT = Date.parse("2026-11-25T10:00:00.000Z");

function change(kind: ChangeRecord["kind"], oldImage?: Record<string, unknown>, newImage?: Record<string, unknown>) {
  return {
    id: `record-${kind}`,
    kind,
    sequenceNumber: "1",
    keys: { pk: "p", sk: "s" },
    at: AT,
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
  } satisfies ChangeRecord;
}

const issue = {
  entity: "issue",
  id: "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  number: 7,
  identifier: "KZN-7",
  title: "Crash",
  type: "bug",
  status: "todo",
  createdAt: "2026-11-25T09:00:00.000Z",
  updatedAt: "2026-11-25T09:30:00.000Z",
};
const dispatch = {
  entity: "dispatch",
  id: "dsp_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  issueId: issue.id,
  agent: "a",
  status: "active",
  attempt: 1,
  leaseSeconds: 600,
  claimedAt: "2026-11-25T09:40:00.000Z",
  finishedAt: null,
};

describe("eventsOf", () => {
  it("makes issue.created of an inserted issue, and nothing of one rewritten at the same status", () => {
    const [created] = eventsOf(change("INSERT", undefined, issue));
    expect(created).toMatchObject({ type: "issue.created", createdAt: issue.createdAt });
    expect((created?.data.issue as { id: string } | undefined)?.id).toBe(issue.id);
    expect(eventsOf(change("MODIFY", issue, { ...issue, title: "Crash!" }))).toEqual([]);
  });

  it("makes issue.status_changed with from and to, and who moved it when the issue says", () => {
    const [moved] = eventsOf(change("MODIFY", issue, { ...issue, status: "in_progress" }));
    expect(moved).toMatchObject({ type: "issue.status_changed", data: { from: "todo", to: "in_progress", by: null } });
    const statusChange = { from: "todo", to: "in_progress", by: "dispatch", at: "2026-11-25T09:40:00.000Z" };
    const [claimed] = eventsOf(change("MODIFY", issue, { ...issue, status: "in_progress", statusChange }));
    expect(claimed?.data).toMatchObject({ from: "todo", to: "in_progress", by: "dispatch" });
  });

  it("makes issue.created then issue.status_changed by automation of an issue inserted already accepted", () => {
    const statusChange = { from: "triage", to: "todo", by: "automation", at: issue.createdAt };
    const events = eventsOf(change("INSERT", undefined, { ...issue, statusChange }));
    expect(events.map((event) => event.type)).toEqual(["issue.created", "issue.status_changed"]);
    expect(events[1]?.data).toMatchObject({ from: "triage", to: "todo", by: "automation" });
    expect(new Set(events.map((event) => event.id)).size).toBe(2);
  });

  it.each([
    ["completed", "dispatch.completed"],
    ["failed", "dispatch.failed"],
    ["expired", "dispatch.expired"],
  ])("makes the event of a dispatch ending %s", (status, type) => {
    const ended = { ...dispatch, status, finishedAt: "2026-11-25T09:50:00.000Z" };
    expect(eventsOf(change("MODIFY", dispatch, ended)).map((event) => event.type)).toEqual([type]);
  });

  it("makes issue.verified or issue.regressed when a pending watch ends so, once, and nothing else of the watch", () => {
    const pending = {
      status: "pending",
      mergedAt: "2026-11-22T09:00:00.000Z",
      until: "2026-11-25T09:00:00.000Z",
      regressedAt: null,
      signalId: null,
      dispatchId: dispatch.id,
    };
    const watched = { ...issue, status: "done", verification: pending };
    const verifiedWatch = { ...pending, status: "verified" };
    const [verified, ...none] = eventsOf(change("MODIFY", watched, { ...watched, verification: verifiedWatch }));
    expect(none).toEqual([]);
    expect(verified).toMatchObject({ type: "issue.verified", data: { verification: verifiedWatch } });
    expect(
      eventsOf(
        change("MODIFY", { ...watched, verification: verifiedWatch }, { ...watched, verification: verifiedWatch }),
      ),
    ).toEqual([]);
    const regressedWatch = {
      ...pending,
      status: "regressed",
      regressedAt: "2026-11-24T00:00:00.000Z",
      signalId: "sig_1",
    };
    const reopened = { ...watched, status: "todo", verification: regressedWatch };
    expect(eventsOf(change("MODIFY", watched, reopened)).map(({ type, createdAt }) => [type, createdAt])).toEqual([
      ["issue.status_changed", issue.updatedAt],
      ["issue.regressed", "2026-11-24T00:00:00.000Z"],
    ]);
    // A watch starting (a merge) is a status change, not a verification event.
    expect(eventsOf(change("MODIFY", { ...issue, status: "in_review" }, watched)).map(({ type }) => type)).toEqual([
      "issue.status_changed",
    ]);
  });

  it("makes dispatch.claimed of an inserted dispatch, and nothing of a release or a heartbeat", () => {
    expect(eventsOf(change("INSERT", undefined, dispatch)).map((event) => event.type)).toEqual(["dispatch.claimed"]);
    expect(eventsOf(change("MODIFY", dispatch, { ...dispatch, status: "released" }))).toEqual([]);
    expect(eventsOf(change("MODIFY", dispatch, { ...dispatch, heartbeatAt: "2026-11-25T09:45:00.000Z" }))).toEqual([]);
  });

  it("makes dispatch.stopped with the reason and who stopped it, once", () => {
    const stopped = {
      ...dispatch,
      status: "stopped",
      stopReason: "Wrong approach",
      finishedAt: "2026-11-25T09:50:00.000Z",
    };
    const [event, ...none] = eventsOf(change("MODIFY", dispatch, stopped));
    expect(none).toEqual([]);
    expect(event).toMatchObject({
      type: "dispatch.stopped",
      createdAt: "2026-11-25T09:50:00.000Z",
      data: { reason: "Wrong approach", by: "api", dispatch: { id: dispatch.id, status: "stopped" } },
    });
    expect(eventsOf(change("MODIFY", stopped, { ...stopped, version: 3 }))).toEqual([]);
  });

  it("says a dispatch stopped for its budget was stopped by automation, from a waiting one too", () => {
    const waiting = { ...dispatch, status: "waiting", waitingFor: "input" };
    const stopped = {
      ...waiting,
      status: "stopped",
      waitingFor: null,
      stopReason: "Cost budget passed",
      stoppedBy: "automation",
      finishedAt: "2026-11-25T09:50:00.000Z",
    };
    expect(eventsOf(change("MODIFY", waiting, stopped))).toMatchObject([
      { type: "dispatch.stopped", data: { reason: "Cost budget passed", by: "automation" } },
    ]);
    const expired = { ...waiting, status: "expired", finishedAt: "2026-12-02T09:00:00.000Z" };
    expect(eventsOf(change("MODIFY", waiting, expired)).map(({ type }) => type)).toEqual(["dispatch.expired"]);
  });

  it("makes dispatch.waiting when a dispatch begins to wait, or waits for something else, and not while it waits on", () => {
    const beat = "2026-11-25T09:40:00.000Z";
    const asking = { ...dispatch, status: "waiting", waitingFor: "input", heartbeatAt: beat };
    const [event, ...none] = eventsOf(change("MODIFY", dispatch, asking));
    expect(none).toEqual([]);
    expect(event).toMatchObject({
      type: "dispatch.waiting",
      createdAt: beat,
      data: { waitingFor: "input", dispatch: { id: dispatch.id, status: "waiting", waitingFor: "input" } },
    });
    expect(eventsOf(change("MODIFY", asking, { ...asking, activityCount: 4 }))).toEqual([]);
    const planning = { ...asking, waitingFor: "approval" };
    expect(eventsOf(change("MODIFY", asking, planning))).toMatchObject([
      { type: "dispatch.waiting", data: { waitingFor: "approval" } },
    ]);
    // Answered: back to work, no event of its own (the activity stream says it).
    expect(eventsOf(change("MODIFY", planning, { ...planning, status: "active", waitingFor: null }))).toEqual([]);
  });

  it("makes experiment.decided when one leaves running, once", () => {
    const running = { entity: "experiment", id: "exp_01ARZ3NDEKTSV4RRFFQ69G5FAV", status: "running", endedAt: null };
    const ended = { ...running, status: "promoted", endedAt: "2026-11-25T09:55:00.000Z" };
    expect(eventsOf(change("MODIFY", running, ended)).map((event) => event.type)).toEqual(["experiment.decided"]);
    expect(eventsOf(change("MODIFY", ended, { ...ended, decision: {} }))).toEqual([]);
  });

  it("makes prompt.needs_attention when a version's improvement task is recorded, once", () => {
    const key = versionReviewsKey("tpl_01ARZ3NDEKTSV4RRFFQ69G5FAV", 3);
    const before = { entity: "templatereviews", reviewCount: 2, reviewScore: 3.6, reviewsFoldedThrough: 2 };
    const after = { ...before, reviewCount: 3, reviewScore: 3.1, improvementIssueId: issue.id };
    const record = { ...change("MODIFY", before, after), keys: key };
    const [attention] = eventsOf(record);
    expect(attention).toMatchObject({
      type: "prompt.needs_attention",
      // When the improvement task was opened (its id says), not the stream's approximate time of the change.
      createdAt: new Date(decodeTime(issue.id.slice(4))).toISOString(),
      data: {
        templateId: "tpl_01ARZ3NDEKTSV4RRFFQ69G5FAV",
        version: 3,
        reviewScore: 3.1,
        improvementIssueId: issue.id,
      },
    });
    expect(eventsOf({ ...change("MODIFY", after, { ...after, reviewCount: 4 }), keys: key })).toEqual([]);
  });

  it("makes nothing of deletes and of other items", () => {
    expect(eventsOf(change("REMOVE", issue, undefined))).toEqual([]);
    expect(eventsOf(change("INSERT", undefined, { entity: "comment", id: "cmt_1" }))).toEqual([]);
  });

  it("gives a record the same event ids every time it is read, and different records different ids", () => {
    const once = eventsOf(change("INSERT", undefined, issue));
    const again = eventsOf(change("INSERT", undefined, issue));
    const other = eventsOf({ ...change("INSERT", undefined, issue), id: "record-other" });
    expect(again[0]?.id).toBe(once[0]?.id);
    expect(other[0]?.id).not.toBe(once[0]?.id);
    expect(once[0]?.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    const id = String(once[0]?.id);
    expect(deliveryId(id, "dst_A")).toBe(deliveryId(id, "dst_A"));
    expect(deliveryId(id, "dst_A")).not.toBe(deliveryId(id, "dst_B"));
    expect(deliveryId(id, "dst_A")).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe("retryDelayMs", () => {
  it("waits 15–30 s before the first retry, doubling up to 4 h", () => {
    expect(retryDelayMs(1, () => 0)).toBe(FIRST_RETRY_MS / 2);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThan(FIRST_RETRY_MS);
    expect(retryDelayMs(2, () => 0)).toBe(FIRST_RETRY_MS);
    expect(retryDelayMs(3, () => 0)).toBe(2 * FIRST_RETRY_MS);
    expect(retryDelayMs(30, () => 0.999)).toBeLessThanOrEqual(MAX_RETRY_MS);
    expect(retryDelayMs(30, () => 0)).toBe(MAX_RETRY_MS / 2);
  });

  it("spends 24 h in about 14 automatic attempts", () => {
    let spent = 0;
    let attempts = 1;
    while (spent + retryDelayMs(attempts, () => 0.5) <= 24 * 3_600_000) spent += retryDelayMs(attempts++, () => 0.5);
    expect(attempts).toBeGreaterThanOrEqual(12);
    expect(attempts).toBeLessThanOrEqual(16);
  });
});

describe("signatures", () => {
  it("is HMAC-SHA256 of `<timestamp>.<body>` keyed with the whole secret, and verifies either of two", () => {
    // Known answer: printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
    expect(signature("whsec_test", 1_700_000_000, '{"a":1}')).toBe(
      "sha256=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789",
    );
    const both = `${signature("whsec_new", 5, "x")}, ${signature("whsec_old", 5, "x")}`;
    expect(verifySignature("whsec_old", "5", "x", both)).toBe(true);
    expect(verifySignature("whsec_new", 5, "x", both)).toBe(true);
    expect(verifySignature("whsec_other", 5, "x", both)).toBe(false);
    expect(verifySignature("whsec_new", 6, "x", both)).toBe(false);
  });
});
