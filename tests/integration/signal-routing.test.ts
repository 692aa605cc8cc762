/** What deliveries do to issues, under redelivery and concurrency, and what they cost. */
import { describe, expect, it } from "vitest";
import type { DbUsage } from "../../core/src/index.js";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import {
  analyticsDelivery,
  codehostDelivery,
  errortrackerDelivery,
  issueEvent,
  type SignedDelivery,
} from "../helpers/deliveries.js";

type Ingested = {
  data: {
    signal: { id: string; action: string; issueId: string | null; fingerprint: string; severity: string };
    issue: Record<string, unknown> | null;
    duplicate: boolean;
  };
};

async function send(t: TestApp, delivery: SignedDelivery): Promise<{ status: number; body: Ingested }> {
  const response = await t.app.request(delivery.path, delivery.init);
  const body = (await response.json()) as Ingested;
  if (response.status >= 300) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  return { status: response.status, body };
}

async function listTotal(t: TestApp, path: string): Promise<number> {
  return ((await (await t.app.request(path, { headers: AUTH })).json()) as { total: number }).total;
}

async function usageOf<T>(t: TestApp, run: () => Promise<T>): Promise<DbUsage> {
  const before = t.db.usage();
  await run();
  const after = t.db.usage();
  return {
    calls: after.calls - before.calls,
    readCapacity: after.readCapacity - before.readCapacity,
    writeCapacity: after.writeCapacity - before.writeCapacity,
  };
}

describe("routing", () => {
  it("opens an issue for a signal of medium severity or more, with the signal's facts", async () => {
    const t = await testApp();
    const { status, body } = await send(t, codehostDelivery("issues", issueEvent("opened", 12, "Checkout crashes")));
    expect(status).toBe(201);
    expect(body.data.duplicate).toBe(false);
    expect(body.data.signal).toMatchObject({ action: "opened", severity: "medium" });
    expect(body.data.issue).toMatchObject({
      title: "Checkout crashes",
      type: "signal",
      status: "triage",
      priority: 3,
      fingerprint: "codehost:issue:octo-org/shop#12",
      signalSource: "codehost",
      signalCount: 1,
      number: 1,
    });
    expect(body.data.signal.issueId).toBe(body.data.issue?.id);
    expect(body.data.issue?.lastSignalAt).toBe((body.data.signal as unknown as { receivedAt: string }).receivedAt);
  });

  it("records low-severity noise without an issue", async () => {
    const t = await testApp();
    const push = await send(
      t,
      codehostDelivery("push", { ref: "refs/heads/main", commits: [], repository: { full_name: "o/r" } }),
    );
    expect(push.body.data).toMatchObject({
      signal: { action: "recorded", issueId: null, severity: "low" },
      issue: null,
    });
    const ping = await send(t, codehostDelivery("ping", { zen: "Keep it simple", repository: { full_name: "o/r" } }));
    expect(ping.body.data.signal.action).toBe("recorded");
    expect(await listTotal(t, "/api/issues")).toBe(0);
    expect(await listTotal(t, "/api/signals?action=recorded")).toBe(2);
  });

  it("groups later signals of the fingerprint, counting them and raising priority only", async () => {
    const t = await testApp();
    const opened = await send(
      t,
      errortrackerDelivery("issue", {
        action: "created",
        data: { issue: { id: "77", title: "TypeError", level: "warning" } },
      }),
    );
    expect(opened.body.data.issue).toMatchObject({ priority: 3, signalCount: 1 });
    const worse = await send(
      t,
      errortrackerDelivery("event_alert", {
        action: "triggered",
        data: { event: { issue_id: "77", level: "fatal", title: "TypeError" } },
      }),
    );
    expect(worse.body.data.signal).toMatchObject({
      action: "grouped",
      issueId: opened.body.data.issue?.id,
      severity: "critical",
    });
    expect(worse.body.data.issue).toMatchObject({ id: opened.body.data.issue?.id, priority: 1, signalCount: 2 });
    const milder = await send(
      t,
      errortrackerDelivery("issue", { action: "assigned", data: { issue: { id: "77", level: "info" } } }),
    );
    expect(milder.body.data.issue).toMatchObject({ priority: 1, signalCount: 3 });
    expect(await listTotal(t, "/api/issues")).toBe(1);
    expect(await listTotal(t, "/api/issues?priority=1")).toBe(1);
    expect(await listTotal(t, "/api/issues?priority=3")).toBe(0);
    const detail = (await (
      await t.app.request(`/api/issues/${opened.body.data.issue?.id}`, { headers: AUTH })
    ).json()) as {
      data: { signalCount: number; lastSignalAt: string };
    };
    expect(detail.data.signalCount).toBe(3);
    expect(detail.data.lastSignalAt).toBe((milder.body.data.signal as unknown as { receivedAt: string }).receivedAt);
  });

  it("closes a grouped triage issue on issues.closed and reopens it on issues.reopened", async () => {
    const t = await testApp();
    const opened = await send(t, codehostDelivery("issues", issueEvent("opened", 3)));
    const issueId = opened.body.data.issue?.id;
    const closed = await send(t, codehostDelivery("issues", issueEvent("closed", 3)));
    expect(closed.body.data.issue).toMatchObject({ id: issueId, status: "done", completedAt: expect.any(String) });
    expect(await listTotal(t, "/api/issues?status=done")).toBe(1);
    const reopened = await send(t, codehostDelivery("issues", issueEvent("reopened", 3)));
    expect(reopened.body.data.signal.action).toBe("grouped");
    expect(reopened.body.data.issue).toMatchObject({
      id: issueId,
      status: "triage",
      completedAt: null,
      signalCount: 3,
    });
    expect(await listTotal(t, "/api/issues?status=triage")).toBe(1);
    expect(await listTotal(t, "/api/issues")).toBe(1);
  });

  it("opens a new issue when the fingerprint's issue is finished and the event does not reopen it", async () => {
    const t = await testApp();
    const first = await send(
      t,
      errortrackerDelivery("issue", { action: "created", data: { issue: { id: "9", level: "error" } } }),
    );
    await send(t, errortrackerDelivery("issue", { action: "resolved", data: { issue: { id: "9", level: "error" } } }));
    const again = await send(
      t,
      errortrackerDelivery("error", { action: "created", data: { error: { issue_id: "9", level: "error" } } }),
    );
    expect(again.body.data.signal.action).toBe("opened");
    expect(again.body.data.issue?.id).not.toBe(first.body.data.issue?.id);
    expect(await listTotal(t, "/api/issues")).toBe(2);
    const unresolved = await send(
      t,
      errortrackerDelivery("issue", { action: "unresolved", data: { issue: { id: "9", level: "error" } } }),
    );
    expect(unresolved.body.data.issue?.id).toBe(again.body.data.issue?.id);
  });
});

describe("redelivery", () => {
  it("stores a delivery once and answers the same signal and issue with duplicate: true", async () => {
    const t = await testApp();
    const delivery = codehostDelivery("issues", issueEvent("opened", 4));
    const first = await send(t, delivery);
    const second = await send(t, delivery);
    expect(second.status).toBe(200);
    expect(second.body.data.duplicate).toBe(true);
    expect(second.body.data.signal.id).toBe(first.body.data.signal.id);
    expect(second.body.data.issue?.id).toBe(first.body.data.issue?.id);
    expect(second.body.data.issue?.signalCount).toBe(1);
    expect(await listTotal(t, "/api/signals")).toBe(1);
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("keeps one signal when the same delivery arrives 10 times at once", async () => {
      const t = await testApp({}, { emulateConflicts });
      const delivery = errortrackerDelivery("issue", {
        action: "created",
        data: { issue: { id: "500", level: "error" } },
      });
      const results = await Promise.all(Array.from({ length: 10 }, () => send(t, delivery)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(results.filter((r) => !r.body.data.duplicate)).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.data.signal.id)).size).toBe(1);
      expect(new Set(results.map((r) => r.body.data.issue?.id)).size).toBe(1);
      expect(await listTotal(t, "/api/signals")).toBe(1);
      expect(await listTotal(t, "/api/issues")).toBe(1);
    });
  });

  it("tells deliveries apart by source", async () => {
    const t = await testApp();
    await send(t, codehostDelivery("ping", { zen: "z", repository: { full_name: "o/r" } }, { delivery: "same-id" }));
    const other = await send(t, analyticsDelivery({ event: "signup" }, { delivery: "same-id" }));
    expect(other.body.data.duplicate).toBe(false);
  });

  it("dedupes analytics by event uuid, else by the body's hash", async () => {
    const t = await testApp();
    const event = { event: { uuid: "0190-aaaa", event: "checkout_failed", distinct_id: "u1", properties: {} } };
    await send(t, analyticsDelivery(event));
    expect((await send(t, analyticsDelivery(event))).body.data.duplicate).toBe(true);
    const bare = { name: "conversion_drop", properties: { value: 30 } };
    await send(t, analyticsDelivery(bare));
    expect((await send(t, analyticsDelivery(bare))).body.data.duplicate).toBe(true);
    expect((await send(t, analyticsDelivery({ ...bare, properties: { value: 31 } }))).body.data.duplicate).toBe(false);
  });
});

describe("concurrent deliveries of one fingerprint", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("never open two issues", async () => {
      const t = await testApp({}, { emulateConflicts });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => send(t, codehostDelivery("issues", issueEvent("edited", 42, "Same issue")))),
      );
      const issueIds = new Set(results.map((r) => r.body.data.signal.issueId));
      expect(issueIds.size).toBe(1);
      expect(results.filter((r) => r.body.data.signal.action === "opened")).toHaveLength(1);
      expect(results.filter((r) => r.body.data.signal.action === "grouped")).toHaveLength(7);
      expect(await listTotal(t, "/api/issues")).toBe(1);
      const issue = (await (await t.app.request(`/api/issues/${[...issueIds][0]}`, { headers: AUTH })).json()) as {
        data: { signalCount: number };
      };
      expect(issue.data.signalCount).toBe(8);
      expect(await listTotal(t, `/api/issues/${[...issueIds][0]}/signals`)).toBe(8);
    });
  });
});

describe("payloads", () => {
  it("keeps a 4 MiB push payload whole and returns it equal", async () => {
    const t = await testApp();
    const commits = Array.from({ length: 2500 }, (_, i) => ({
      id: `${i.toString(16).padStart(8, "0")}${"a".repeat(32)}`,
      message: `Commit ${i}: ${"lorem ipsum dolor sit amet ".repeat(60)}${Math.random().toString(36)}`,
      author: { name: "Dev 🚀", email: "dev@example.com" },
    }));
    const push = {
      ref: "refs/heads/main",
      before: "0".repeat(40),
      after: "f".repeat(40),
      commits,
      repository: { full_name: "o/big" },
    };
    const delivery = codehostDelivery("push", push);
    expect(delivery.init.body.length).toBeGreaterThan(4 * 1024 * 1024);
    const { body } = await send(t, delivery);
    expect(body.data.signal).toMatchObject({ action: "recorded" });
    const stored = (await (await t.app.request(`/api/signals/${body.data.signal.id}`, { headers: AUTH })).json()) as {
      data: { payload: unknown; payloadBytes: number };
    };
    expect(stored.data.payloadBytes).toBe(Buffer.byteLength(delivery.init.body));
    expect(stored.data.payload).toEqual(push);
  });

  it("keeps a payload that does not compress (written ahead of the transaction)", async () => {
    const t = await testApp();
    const noise = Buffer.from(Array.from({ length: 3_600_000 }, () => Math.floor(Math.random() * 256))).toString(
      "base64",
    );
    const payload = { ref: "refs/heads/main", noise, repository: { full_name: "o/noise" } };
    const { body } = await send(t, codehostDelivery("push", payload));
    const stored = (await (await t.app.request(`/api/signals/${body.data.signal.id}`, { headers: AUTH })).json()) as {
      data: { payload: unknown };
    };
    expect(stored.data.payload).toEqual(payload);
  });
});

describe("costs", () => {
  // The receiver's calls (request-costs.test.ts): the delivery id's reservation beside the read of
  // the fingerprint, then the issue (or its number), then the transaction; a duplicate reads its
  // signal and issue instead; a delivery that touches no issue skips the middle call.
  it("stay within 4 DynamoDB calls per delivery: new, duplicate, grouped, recorded", async () => {
    const t = await testApp();
    const first = codehostDelivery("issues", issueEvent("opened", 1));
    expect((await usageOf(t, () => send(t, first))).calls).toBeLessThanOrEqual(4);
    expect((await usageOf(t, () => send(t, first))).calls).toBeLessThanOrEqual(4);
    expect(
      (await usageOf(t, () => send(t, codehostDelivery("issues", issueEvent("edited", 1))))).calls,
    ).toBeLessThanOrEqual(4);
    const push = codehostDelivery("push", { ref: "refs/heads/x", repository: { full_name: "o/r" } });
    expect((await usageOf(t, () => send(t, push))).calls).toBeLessThanOrEqual(3);
  });
});
