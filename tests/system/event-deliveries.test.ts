/**
 * Outbound events (docs/api.md#outbound-events) end to end on DynamoDB Local: changes made through the API, read
 * from the table's change stream, delivered to a local receiver, signed, retried, recorded.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ChangeRecord } from "../../core/src/db/changes.js";
import { startStreamReader } from "../../core/src/db/stream-reader.js";
import { MAX_RETRY_MS } from "../../core/src/events/event-deliveries.js";
import { EVENT_TYPES } from "../../core/src/events/schemas.js";
import { SEND_TIMEOUT_MS } from "../../core/src/events/sender.js";
import { verifySignature } from "../../core/src/events/signing.js";
import { OPEN_GUARD } from "../../core/src/outbound-guard.js";
import { eventDeliveries } from "../../core/src/services.js";
import { type LocalEventsOptions, startLocalEvents } from "../../infra/local/events.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { startTestServer } from "../helpers/local-server.js";
import { type Script, startReceiver } from "../helpers/receiver.js";

const ALL_EVENTS: string[] = [...EVENT_TYPES];

/** Due retries are looked for this often here (`npm start`: every second), so one the test's clock made due goes out at once. */
const SWEEP_MS = 100;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A test app whose clock the test moves on, with the local stream reader and sweeper on its table. */
async function setUp(script?: Script, events: string[] = ALL_EVENTS, options: LocalEventsOptions = {}) {
  let shiftMs = 0;
  const clock = () => new Date(Date.now() + shiftMs);
  const t = await testApp({ clock }, { stream: true });
  const receiver = await startReceiver(script);
  const local = await startLocalEvents({ db: t.db, clock, outboundGuard: OPEN_GUARD }, () => undefined, {
    sweepIntervalMs: SWEEP_MS,
    ...options,
  });
  cleanups.push(
    () => receiver.close(),
    () => local.stop(),
  );
  const made = await t.app.request("/api/event-destinations", jsonPost({ url: receiver.url, events }));
  const destination = ((await made.json()) as { data: { id: string; secret: string } }).data;
  return {
    t,
    receiver,
    local,
    destination,
    /** Moves the service's clock on. */
    advance(ms: number) {
      shiftMs += ms;
    },
  };
}

async function json<T = Record<string, unknown>>(response: Response | Promise<Response>): Promise<T> {
  const answered = await response;
  const body = (await answered.json()) as { data: T };
  if (answered.status >= 300) throw new Error(`${answered.status}: ${JSON.stringify(body)}`);
  return body.data;
}

async function createIssue(t: TestApp, fields: Record<string, unknown> = {}) {
  return json<{ id: string; status: string }>(
    t.app.request("/api/issues", jsonPost({ title: "Something broke", type: "task", status: "todo", ...fields })),
  );
}

async function claim(t: TestApp, body: Record<string, unknown> = {}) {
  return json<{ dispatch: { id: string; token: string }; issue: { id: string }; prompt: { id: string } | null }>(
    t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-1", ...body })),
  );
}

async function deliveriesOf(t: TestApp, destinationId: string) {
  const response = await t.app.request(`/api/event-destinations/${destinationId}/deliveries?limit=100`, {
    headers: AUTH,
  });
  return (await response.json()) as {
    data: { id: string; eventId: string; status: string; attempts: Record<string, unknown>[]; nextAttemptAt: string }[];
    total: number;
  };
}

/** Waits until `check` holds (polling), failing after `timeoutMs`. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("outbound events", () => {
  it("sends every event type once per change, signed", async () => {
    const { t, receiver, local, destination, advance } = await setUp();
    // issue.created ×3; issue.status_changed as each moves.
    for (const [i, title] of ["to finish", "to fail", "to lapse"].entries())
      await createIssue(t, { title, priority: i + 1 });
    // dispatch.claimed, then dispatch.completed.
    const first = await claim(t);
    await json(
      t.app.request(
        `/api/dispatch/${first.dispatch.id}/complete`,
        jsonPost({ result: "done", summary: "fixed" }, { Authorization: `Bearer ${first.dispatch.token}` }),
      ),
    );
    // dispatch.failed.
    const second = await claim(t);
    await json(
      t.app.request(
        `/api/dispatch/${second.dispatch.id}/complete`,
        jsonPost({ result: "failed", summary: "could not" }, { Authorization: `Bearer ${second.dispatch.token}` }),
      ),
    );
    // dispatch.expired: a lease that ran out, noticed by the next claim.
    const third = await claim(t, { leaseSeconds: 60 });
    advance(61_000);
    // A claim of a type nothing has: it takes nothing, but ends the lapsed lease first.
    await t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-2", types: ["monitor"] }));
    // prompt.needs_attention: three weak reviews of one version open its improvement task.
    if (!first.prompt) throw new Error("the claim rendered no prompt");
    for (let i = 0; i < 3; i++) {
      await json(
        t.app.request(
          `/api/prompts/${first.prompt.id}/reviews`,
          jsonPost({ clarity: 1, completeness: 2, relevance: 1, authorType: "agent" }),
        ),
      );
    }
    // experiment.decided: one started on a template, then stopped.
    const template = await json<{ id: string }>(
      t.app.request(
        "/api/templates",
        jsonPost({ name: "Experimental", slug: "experimental", content: "Fix {{issue.title}}", conditions: {} }),
      ),
    );
    const draft = await json<{ id: string }>(
      t.app.request(
        `/api/templates/${template.id}/versions`,
        jsonPost({ content: "Please fix {{issue.title}}", changelog: "kinder" }),
      ),
    );
    const experiment = await json<{ id: string }>(
      t.app.request(
        `/api/templates/${template.id}/experiments`,
        jsonPost({ candidateVersionId: draft.id, trafficPercent: 10 }),
      ),
    );
    await json(
      t.app.request(`/api/templates/${template.id}/experiments/${experiment.id}`, {
        method: "DELETE",
        headers: AUTH,
      }),
    );

    await local.drained();
    const expected = {
      "issue.created": 4, // three issues and the improvement task
      "dispatch.claimed": 3,
      "dispatch.completed": 1,
      "dispatch.failed": 1,
      "dispatch.expired": 1,
      "prompt.needs_attention": 1,
      "experiment.decided": 1,
    };
    await until(() => receiver.received.length >= 12);
    await local.drained();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const byType = (type: string) => receiver.received.filter(({ event }) => event.type === type);
    for (const [type, count] of Object.entries(expected)) expect(byType(type), type).toHaveLength(count);
    // Each status move once: per issue, its moves in order chain from the status it was created in
    // to the one it has now, with no link missing or repeated.
    const movesOf = new Map<string, { from: string; to: string; at: string }[]>();
    for (const { event } of byType("issue.status_changed")) {
      const { issue, from, to } = event.data as { issue: { id: string }; from: string; to: string };
      movesOf.set(issue.id, [...(movesOf.get(issue.id) ?? []), { from, to, at: event.createdAt }]);
    }
    expect([...movesOf.keys()].sort()).toEqual([...new Set([first, second, third].map((c) => c.issue.id))].sort());
    for (const [id, moves] of movesOf) {
      const chain = moves.sort((a, b) => a.at.localeCompare(b.at));
      const now = await json<{ status: string }>(t.app.request(`/api/issues/${id}`, { headers: AUTH }));
      expect(chain[0]?.from, id).toBe("todo");
      for (let i = 1; i < chain.length; i++) expect(chain[i]?.from, id).toBe(chain[i - 1]?.to);
      expect(chain.at(-1)?.to, id).toBe(now.status);
    }
    expect(movesOf.get(first.issue.id)?.map(({ to }) => to)).toEqual(["in_progress", "done"]);
    // Ids are unique, and every request is signed with the destination's secret.
    const ids = receiver.received.map(({ event }) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { headers, body, event } of receiver.received) {
      expect(headers["kaizen-event-id"]).toBe(event.id);
      expect(headers["kaizen-event-type"]).toBe(event.type);
      expect(headers["content-type"]).toBe("application/json");
      const timestamp = String(headers["kaizen-timestamp"]);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
      expect(headers["kaizen-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifySignature(destination.secret, timestamp, body, String(headers["kaizen-signature-256"]))).toBe(true);
      expect(verifySignature("whsec_wrong", timestamp, body, String(headers["kaizen-signature-256"]))).toBe(false);
      expect(Object.keys(event).sort()).toEqual(["createdAt", "data", "id", "type"]);
    }
    const claimed = byType("dispatch.claimed").map(({ event }) => (event.data.dispatch as { id: string }).id);
    expect(claimed.sort()).toEqual([first.dispatch.id, second.dispatch.id, third.dispatch.id].sort());
    const decided = byType("experiment.decided")[0]?.event.data.experiment as { id: string; status: string };
    expect(decided).toMatchObject({ id: experiment.id, status: "stopped" });
  }, 60_000);

  it("sends only the types a destination asked for, and nothing to an inactive one", async () => {
    const { t, receiver, local, destination } = await setUp(undefined, ["dispatch.failed"]);
    const quiet = await startReceiver();
    cleanups.push(() => quiet.close());
    const off = await json<{ id: string }>(
      t.app.request("/api/event-destinations", jsonPost({ url: quiet.url, events: ALL_EVENTS, active: false })),
    );
    await createIssue(t);
    await local.drained();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0);
    expect(quiet.received).toHaveLength(0);
    expect((await deliveriesOf(t, destination.id)).total).toBe(0);
    expect((await deliveriesOf(t, off.id)).total).toBe(0);
  });

  it("retries a receiver that answers 500, with the same event id, after a backoff under 30 s", async () => {
    const { t, receiver, local, destination, advance } = await setUp((n) => (n === 0 ? 500 : 200), ["issue.created"]);
    const issue = await createIssue(t);
    await receiver.waitFor(1);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.attempts.length === 1);
    const [pending] = (await deliveriesOf(t, destination.id)).data;
    expect(pending).toMatchObject({ status: "pending" });
    expect(pending?.attempts[0]).toMatchObject({
      outcome: "failed",
      responseStatus: 500,
      error: "HTTP 500",
      trigger: "automatic",
    });
    const wait = Date.parse(pending?.nextAttemptAt ?? "") - Date.parse(String(pending?.attempts[0]?.at));
    expect(wait).toBeGreaterThanOrEqual(15_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    // Not before it is due: several sweeps go by without sending it.
    await new Promise((resolve) => setTimeout(resolve, 5 * SWEEP_MS));
    expect(receiver.received).toHaveLength(1);
    advance(31_000);
    await receiver.waitFor(2);
    const [a, b] = receiver.received;
    expect(b?.event.id).toBe(a?.event.id);
    expect(b?.body).toBe(a?.body);
    expect((a?.event.data.issue as { id: string } | undefined)?.id).toBe(issue.id);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.status === "succeeded");
    const [delivered] = (await deliveriesOf(t, destination.id)).data;
    expect(delivered?.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, 200]);
    expect(delivered?.nextAttemptAt).toBeNull();
    await local.drained();
  });

  it("ends the pending deliveries of a destination switched off, without sending them", async () => {
    const { t, receiver, destination, advance } = await setUp(() => 500, ["issue.created"]);
    await createIssue(t);
    await receiver.waitFor(1);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.attempts.length === 1);
    const off = await t.app.request(`/api/event-destinations/${destination.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ active: false }),
    });
    expect(off.status).toBe(200);
    advance(31_000);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.status === "failed");
    const [ended] = (await deliveriesOf(t, destination.id)).data;
    expect(ended?.attempts[1]).toMatchObject({ outcome: "failed", error: "not sent: the destination is inactive" });
    expect(ended?.nextAttemptAt).toBeNull();
    expect(receiver.received).toHaveLength(1);
  });

  it("cuts a receiver that hangs at the send timeout (10 s unless set, 1 s here) and records why", async () => {
    // The documented 10 s is the default; shortened, the same cut shows in a second.
    expect(SEND_TIMEOUT_MS).toBe(10_000);
    const sendTimeoutMs = 1_000;
    const { t, receiver, destination } = await setUp((n) => (n === 0 ? "hang" : 204), ["issue.created"], {
      sendTimeoutMs,
    });
    await createIssue(t);
    await receiver.waitFor(1);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.attempts.length === 1, 20_000);
    const attempt = (await deliveriesOf(t, destination.id)).data[0]?.attempts[0] as {
      durationMs: number;
      error: string;
      responseStatus: number | null;
    };
    expect(attempt.error).toBe("timeout after 1 s");
    expect(attempt.responseStatus).toBeNull();
    expect(attempt.durationMs).toBeGreaterThanOrEqual(sendTimeoutMs - 100);
    expect(attempt.durationMs).toBeLessThan(sendTimeoutMs + 2_000);
  }, 30_000);

  it("sends a delivery again on request", async () => {
    const { t, receiver, destination } = await setUp((n) => (n === 0 ? 503 : 200), ["issue.created"]);
    await createIssue(t);
    await receiver.waitFor(1);
    await until(async () => (await deliveriesOf(t, destination.id)).data[0]?.attempts.length === 1);
    const [delivery] = (await deliveriesOf(t, destination.id)).data;
    const retried = await t.app.request(
      `/api/event-destinations/${destination.id}/deliveries/${delivery?.id}/retry`,
      jsonPost({}),
    );
    expect(retried.status).toBe(200);
    const after = ((await retried.json()) as { data: { status: string; attempts: { trigger: string }[] } }).data;
    expect(after.status).toBe("succeeded");
    expect(after.attempts.map((attempt) => attempt.trigger)).toEqual(["automatic", "manual"]);
    expect(receiver.received).toHaveLength(2);
    const other = await t.app.request(
      `/api/event-destinations/dst_01ARZ3NDEKTSV4RRFFQ69G5FAV/deliveries/${delivery?.id}/retry`,
      jsonPost({}),
    );
    expect(other.status).toBe(404);
  });

  it("signs with both secrets for a day after a rotation", async () => {
    const { t, receiver, destination } = await setUp(undefined, ["issue.created"]);
    const rotated = await json<{ secret: string }>(
      t.app.request(`/api/event-destinations/${destination.id}/rotate-secret`, jsonPost({})),
    );
    await createIssue(t);
    const [got] = await receiver.waitFor(1);
    const header = String(got?.headers["kaizen-signature-256"]);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}, sha256=[0-9a-f]{64}$/);
    const timestamp = String(got?.headers["kaizen-timestamp"]);
    expect(verifySignature(rotated.secret, timestamp, String(got?.body), header)).toBe(true);
    expect(verifySignature(destination.secret, timestamp, String(got?.body), header)).toBe(true);
  });

  it("switches a destination off after 100 failed attempts in a row, and says so", async () => {
    // 20 events, each failing its first attempt and its automatic retries: the clock moves on by
    // the longest wait between two attempts, so every pending delivery is due again and the sweeper
    // sends it, until the 100th failure in a row (the 4th round of retries) switches the destination off.
    const events = 20;
    const { t, receiver, local, destination, advance } = await setUp(() => 500, ["issue.created"]);
    for (let i = 0; i < events; i++) await createIssue(t, { title: `issue ${i}` });
    await receiver.waitFor(events);
    await local.drained();
    const read = () =>
      json<{ active: boolean; deactivatedReason: string; consecutiveFailures: number }>(
        t.app.request(`/api/event-destinations/${destination.id}`, { headers: AUTH }),
      );
    for (let round = 1; (await read()).active; round++) {
      expect(round, "rounds of retries").toBeLessThanOrEqual(6);
      advance(MAX_RETRY_MS);
      // Each delivery's attempt of this round is recorded (sent, or not sent once the destination is off).
      await until(async () => {
        const { data } = await deliveriesOf(t, destination.id);
        return data.length === events && data.every((delivery) => delivery.attempts.length > round);
      });
    }
    await receiver.waitFor(100);
    const off = await read();
    expect(off.deactivatedReason).toBe("Deactivated after 100 failed attempts in a row; the last: HTTP 500");
    expect(off.consecutiveFailures).toBeGreaterThanOrEqual(100);
    // An event after the switch-off makes no delivery.
    await createIssue(t, { title: "after" });
    await local.drained();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await deliveriesOf(t, destination.id)).total).toBe(events);
  }, 90_000);

  it("handles a stream batch handed over twice once", async () => {
    const t = await testApp({}, { stream: true });
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    await json(t.app.request("/api/event-destinations", jsonPost({ url: receiver.url, events: ["issue.created"] })));
    const batches: ChangeRecord[][] = [];
    const reader = await startStreamReader({
      db: t.db,
      onChanges: async (changes) => {
        batches.push(changes);
      },
    });
    cleanups.push(() => reader.stop());
    await createIssue(t);
    await createIssue(t);
    await reader.drained();
    const changes = batches.flat();
    const deliveries = eventDeliveries({ db: t.db, outboundGuard: OPEN_GUARD });
    await deliveries.handleChanges(changes);
    await deliveries.handleChanges(changes);
    await Promise.all([deliveries.handleChanges(changes), deliveries.handleChanges(changes)]);
    expect(receiver.received).toHaveLength(2);
    expect(new Set(receiver.received.map(({ event }) => event.id)).size).toBe(2);
  });
});

describe("outbound events on the local server", () => {
  it("survive a restart mid-retry", async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    cleanups.push(() => receiver.close());
    const config = { tableName: `kaizen_events_restart_${Date.now()}` };
    const server = await startTestServer("events-restart", { config, events: true });
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await server.stop();
    });
    const headers = { Authorization: `Bearer ${server.stack.apiKey}`, "Content-Type": "application/json" };
    const made = await fetch(`${server.url}/api/event-destinations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiver.url, events: ["issue.created"] }),
    });
    expect(made.status).toBe(201);
    await fetch(`${server.url}/api/issues`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "before the restart", type: "task" }),
    });
    await receiver.waitFor(1);
    await server.stop();
    stopped = true;
    // The same table, a new server whose clock is past the retry's due time.
    const again = await startTestServer("events-restart", {
      config,
      events: true,
      clock: () => new Date(Date.now() + 60_000),
    });
    cleanups.push(() => again.stop());
    const [first, second] = await receiver.waitFor(2);
    expect(second?.event.id).toBe(first?.event.id);
    expect(second?.answered).toBe(200);
  }, 60_000);
});
