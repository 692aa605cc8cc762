/** Idempotency-Key on the bearer POST routes (docs/api.md#concurrency-and-idempotency), against DynamoDB Local. */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { idempotency, requestFingerprint } from "../../core/src/http/idempotency.js";
import { IdempotencyStore } from "../../core/src/http/idempotency-store.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES, freshTable } from "../helpers/db.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";

const HOUR = 60 * 60 * 1000;
const DIFFERENT_REQUEST = { error: "Idempotency-Key was used with a different request" };
const IN_PROGRESS = { error: "A request with this Idempotency-Key is still in progress" };

async function total(t: TestApp, path: string): Promise<number> {
  const response = await t.app.request(path, { headers: AUTH });
  expect(response.status).toBe(200);
  return ((await response.json()) as { total: number }).total;
}

function keyed(body: unknown, key: string): RequestInit {
  return jsonPost(body, { "Idempotency-Key": key });
}

function snapshot(response: Response, body: string) {
  return {
    status: response.status,
    body,
    contentType: response.headers.get("content-type"),
    location: response.headers.get("location"),
    etag: response.headers.get("etag"),
  };
}

describe("Idempotency-Key on POST /api/issues", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("replays the first 201 (status, body, Location, ETag) and creates the issue once", async () => {
    const before = await total(t, "/api/issues");
    const key = randomUUID();
    const body = { title: "Checkout fails", type: "task" };
    const first = await t.app.request("/api/issues", keyed(body, key));
    const firstText = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(first.headers.get("location")).toMatch(/^\/api\/issues\/iss_/);

    const again = await t.app.request("/api/issues", keyed(body, key));
    expect(snapshot(again, await again.text())).toEqual(snapshot(first, firstText));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(await total(t, "/api/issues")).toBe(before + 1);
  });

  it("replays a 400 for an invalid body as the same 400", async () => {
    const before = await total(t, "/api/issues");
    const key = randomUUID();
    const first = await t.app.request("/api/issues", keyed({ type: "task" }, key));
    const firstText = await first.text();
    expect(first.status).toBe(400);

    const again = await t.app.request("/api/issues", keyed({ type: "task" }, key));
    expect(again.status).toBe(400);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await total(t, "/api/issues")).toBe(before);
  });

  it("answers 409 for the same key with another body, and runs nothing", async () => {
    const key = randomUUID();
    expect((await t.app.request("/api/issues", keyed({ title: "One", type: "task" }, key))).status).toBe(201);
    const before = await total(t, "/api/issues");

    const other = await t.app.request("/api/issues", keyed({ title: "Two", type: "task" }, key));
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual(DIFFERENT_REQUEST);
    // The same JSON formatted differently is other bytes: a different request too.
    const reformatted = await t.app.request("/api/issues", keyed('{ "title": "One", "type": "task" }', key));
    expect(reformatted.status).toBe(409);
    expect(await total(t, "/api/issues")).toBe(before);
  });

  it("answers 409 for the same key on another path: one key space for the whole API", async () => {
    const key = randomUUID();
    expect((await t.app.request("/api/issues", keyed({ title: "Issue", type: "task" }, key))).status).toBe(201);
    const signals = await total(t, "/api/signals");

    const other = await t.app.request(
      "/api/signals",
      keyed({ source: "ops", type: "x", title: "t", severity: "low" }, key),
    );
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual(DIFFERENT_REQUEST);
    expect(await total(t, "/api/signals")).toBe(signals);
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("runs 5 concurrent identical requests once; the others replay or are told it is in progress", async () => {
      const t = await testApp({}, { emulateConflicts });
      const before = await total(t, "/api/issues");
      const key = randomUUID();
      const body = { title: "Concurrent", type: "task" };
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => t.app.request("/api/issues", keyed(body, key))),
      );
      const answers = await Promise.all(
        responses.map(async (response) => ({
          status: response.status,
          replayed: response.headers.get("idempotent-replayed") === "true",
          body: await response.text(),
        })),
      );

      const originals = answers.filter((answer) => answer.status === 201 && !answer.replayed);
      expect(originals).toHaveLength(1);
      for (const answer of answers) {
        if (answer.status === 201) expect(answer.body).toBe(originals[0]?.body);
        else
          expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 409, body: IN_PROGRESS });
      }
      expect(await total(t, "/api/issues")).toBe(before + 1);

      // Once the first has finished, everyone gets its response.
      const later = await t.app.request("/api/issues", keyed(body, key));
      expect(later.status).toBe(201);
      expect(await later.text()).toBe(originals[0]?.body);
    });
  });

  it("keeps the record 24 h (expiresAt, epoch seconds) with the response it replays", async () => {
    const key = randomUUID();
    const raw = JSON.stringify({ title: "Stored", type: "task" });
    const response = await t.app.request("/api/issues", keyed(raw, key));
    expect(response.status).toBe(201);

    const record = await new IdempotencyStore(t.db).get(key);
    const expected = Date.now() / 1000 + 24 * 60 * 60;
    expect(record?.expiresAt).toBeGreaterThan(expected - 60);
    expect(record?.expiresAt).toBeLessThan(expected + 60);
    expect(Number.isInteger(record?.expiresAt)).toBe(true);
    expect(record?.state).toBe("completed");
    expect(record?.requestHash).toBe(requestFingerprint("POST", "/api/issues", new TextEncoder().encode(raw)));
    expect(record?.response).toMatchObject({
      status: 201,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        Location: response.headers.get("location"),
        ETag: response.headers.get("etag"),
      },
    });
  });

  it("ignores an expired record that TTL has not deleted yet, and runs the request again", async () => {
    const store = new IdempotencyStore(t.db);
    const body = JSON.stringify({ title: "After a day", type: "task" });
    const hash = requestFingerprint("POST", "/api/issues", new TextEncoder().encode(body));
    const key = randomUUID();
    const dayAgo = new Date(Date.now() - 25 * HOUR);
    const claim = await store.claim(key, hash, dayAgo);
    if (!claim.claimed) throw new Error("claim failed");
    await store.complete(key, claim.token, { status: 201, body: '{"data":"stale"}', headers: {} });
    const before = await total(t, "/api/issues");

    const response = await t.app.request("/api/issues", keyed(body, key));
    expect(response.status).toBe(201);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    expect(((await response.json()) as { data: { title: string } }).data.title).toBe("After a day");
    expect(await total(t, "/api/issues")).toBe(before + 1);
    expect((await store.get(key))?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 23 * 60 * 60);
  });

  it("ignores an expired in-progress claim, and one whose request died without answering", async () => {
    const store = new IdempotencyStore(t.db);
    const body = JSON.stringify({ title: "Abandoned", type: "task" });
    const hash = requestFingerprint("POST", "/api/issues", new TextEncoder().encode(body));
    const expiredKey = randomUUID();
    const abandonedKey = randomUUID();
    await store.claim(expiredKey, hash, new Date(Date.now() - 25 * HOUR));
    // Claimed 10 minutes ago: far longer than a function may run, well within the 24 h.
    await store.claim(abandonedKey, hash, new Date(Date.now() - 10 * 60 * 1000));

    for (const key of [expiredKey, abandonedKey]) {
      const response = await t.app.request("/api/issues", keyed(body, key));
      expect(response.status).toBe(201);
      expect(response.headers.get("idempotent-replayed")).toBeNull();
    }
  });

  it("answers 409 while a claim is still running, with Retry-After saying when its lease ends", async () => {
    const store = new IdempotencyStore(t.db);
    const body = JSON.stringify({ title: "Running", type: "task" });
    const key = randomUUID();
    // Claimed 20 s ago, as by a request that died with the database: 40 s of its 60 s lease are left.
    const claimedAt = new Date(Date.now() - 20_000);
    await store.claim(key, requestFingerprint("POST", "/api/issues", new TextEncoder().encode(body)), claimedAt);
    const response = await t.app.request("/api/issues", keyed(body, key));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(IN_PROGRESS);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(39);
    expect(retryAfter).toBeLessThanOrEqual(40);
  });

  it("behaves as before without the header: every POST creates", async () => {
    const before = await total(t, "/api/issues");
    const body = { title: "No key", type: "task" };
    const first = await t.app.request("/api/issues", jsonPost(body));
    const second = await t.app.request("/api/issues", jsonPost(body));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(first.headers.get("location")).not.toBe(second.headers.get("location"));
    expect(await total(t, "/api/issues")).toBe(before + 2);
  });

  it("answers 400 naming the header for a malformed key, before running anything", async () => {
    const before = await total(t, "/api/issues");
    for (const key of ["", "x".repeat(256), "two words", "caf\u00e9"]) {
      const response = await t.app.request("/api/issues", keyed({ title: "Bad key", type: "task" }, key));
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain("Idempotency-Key");
    }
    expect(await total(t, "/api/issues")).toBe(before);
  });

  it("still applies the body limit first: an oversized streamed body is a 413 and claims nothing", async () => {
    const key = randomUUID();
    const big = new TextEncoder().encode(
      JSON.stringify({ title: "x", type: "task", description: "a".repeat(1 << 20) }),
    );
    const response = await t.app.request("/api/issues", {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json", "Idempotency-Key": key },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(big);
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await new IdempotencyStore(t.db).get(key)).toBeUndefined();
  });

  it("still checks auth first: a wrong token is a 401 and claims nothing", async () => {
    const key = randomUUID();
    const response = await t.app.request("/api/issues", {
      method: "POST",
      headers: { Authorization: "Bearer nope", "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify({ title: "x", type: "task" }),
    });
    expect(response.status).toBe(401);
    expect(await new IdempotencyStore(t.db).get(key)).toBeUndefined();
  });
});

describe("Idempotency-Key on POST /api/signals", () => {
  it("replays a manual signal's 201", async () => {
    const t = await testApp();
    const key = randomUUID();
    const body = { source: "ops", type: "x", title: "t", severity: "low" };
    const first = await t.app.request("/api/signals", keyed(body, key));
    const again = await t.app.request("/api/signals", keyed(body, key));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(await first.text());
    expect(await total(t, "/api/signals")).toBe(1);
  });
});

describe("webhook receivers", () => {
  it("ignore Idempotency-Key: two deliveries with one key are two signals", async () => {
    const t = await testApp();
    const key = randomUUID();
    for (const delivery of [randomUUID(), randomUUID()]) {
      const { path, init } = codehostDelivery("issues", issueEvent("opened", 7), { delivery });
      const response = await t.app.request(path, { ...init, headers: { ...init.headers, "Idempotency-Key": key } });
      expect(response.status).toBe(201);
      expect(response.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(await total(t, "/api/signals")).toBe(2);
    expect(await new IdempotencyStore(t.db).get(key)).toBeUndefined();
  });
});

describe("idempotency middleware", () => {
  /** A bare app whose handler counts its runs and answers what `answer` says. */
  async function countingApp(answer: (run: number) => Response | Promise<Response>, now?: () => Date) {
    const { db } = await freshTable();
    let runs = 0;
    // Hono's default handler would print the thrown error; the status is what matters here.
    const app = new Hono().onError(() => new Response("failed", { status: 500 }));
    app.post("/api/things", idempotency(now ? { db, now } : { db }), async () => answer(++runs));
    const post = (key: string, body = '{"n":1}') =>
      app.request("/api/things", { method: "POST", headers: { "Idempotency-Key": key }, body });
    return { post, runs: () => runs };
  }

  it("releases the key after a 5xx or a thrown error so the client can retry", async () => {
    const { post, runs } = await countingApp((run) => {
      if (run === 1) throw new Error("boom");
      if (run === 2) return new Response("unavailable", { status: 503 });
      return Response.json({ ok: run }, { status: 201 });
    });
    const key = randomUUID();
    expect((await post(key)).status).toBe(500);
    expect((await post(key)).status).toBe(503);
    const third = await post(key);
    expect(third.status).toBe(201);
    expect(third.headers.get("idempotent-replayed")).toBeNull();
    const fourth = await post(key);
    expect(fourth.status).toBe(201);
    expect(fourth.headers.get("idempotent-replayed")).toBe("true");
    expect(await fourth.json()).toEqual({ ok: 3 });
    expect(runs()).toBe(3);
  });

  it("replays within 24 h and runs again after, by its clock", async () => {
    let clock = new Date("2025-06-01T12:00:00.000Z").getTime();
    const { post, runs } = await countingApp(
      (run) => Response.json({ run }, { status: 201 }),
      () => new Date(clock),
    );
    const key = randomUUID();
    expect(await (await post(key)).json()).toEqual({ run: 1 });
    clock += 23 * HOUR;
    expect(await (await post(key)).json()).toEqual({ run: 1 });
    clock += 2 * HOUR;
    expect(await (await post(key)).json()).toEqual({ run: 2 });
    expect(runs()).toBe(2);
  });

  it("replays a body-less 204", async () => {
    const { post, runs } = await countingApp(() => new Response(null, { status: 204 }));
    const key = randomUUID();
    expect((await post(key)).status).toBe(204);
    const again = await post(key);
    expect(again.status).toBe(204);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(runs()).toBe(1);
  });
});

describe("Idempotency-Key on the answers that show a secret", () => {
  it("replays a claim's answer, token included, and claims no second issue; its 204 replays too", async () => {
    const t = await testApp();
    for (const title of ["First", "Second"]) {
      const created = await t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" }));
      expect(created.status).toBe(201);
    }
    const key = randomUUID();
    const first = await t.app.request("/api/dispatch/claim", keyed({ agent: "retrying-agent" }, key));
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const again = await t.app.request("/api/dispatch/claim", keyed({ agent: "retrying-agent" }, key));
    expect(snapshot(again, await again.text())).toEqual(snapshot(first, firstText));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await total(t, "/api/dispatch?status=active")).toBe(1);

    // The replayed token is the dispatch's own: it works.
    const { dispatch } = (JSON.parse(firstText) as { data: { dispatch: { id: string; token: string } } }).data;
    const beat = await t.app.request(
      `/api/dispatch/${dispatch.id}/heartbeat`,
      jsonPost({}, { Authorization: `Bearer ${dispatch.token}` }),
    );
    expect(beat.status).toBe(200);

    // Another key claims the other issue; then nothing is left, and that 204 is what its key replays.
    expect((await t.app.request("/api/dispatch/claim", keyed({ agent: "retrying-agent" }, randomUUID()))).status).toBe(
      201,
    );
    const emptyKey = randomUUID();
    expect((await t.app.request("/api/dispatch/claim", keyed({ agent: "retrying-agent" }, emptyKey))).status).toBe(204);
    await t.app.request("/api/issues", jsonPost({ title: "Third", type: "task", status: "todo" }));
    const stale = await t.app.request("/api/dispatch/claim", keyed({ agent: "retrying-agent" }, emptyKey));
    expect(stale.status).toBe(204);
    expect(stale.headers.get("idempotent-replayed")).toBe("true");
    expect(await total(t, "/api/dispatch?status=active")).toBe(2);
  });

  it("replays an event destination's create and its rotate-secret, secret included, and makes each once", async () => {
    const t = await testApp();
    const body = { url: "http://localhost:9/hooks", events: ["issue.created"] };
    const key = randomUUID();
    const first = await t.app.request("/api/event-destinations", keyed(body, key));
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const again = await t.app.request("/api/event-destinations", keyed(body, key));
    expect(snapshot(again, await again.text())).toEqual(snapshot(first, firstText));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await total(t, "/api/event-destinations")).toBe(1);

    const { id, secret } = (JSON.parse(firstText) as { data: { id: string; secret: string } }).data;
    const rotateKey = randomUUID();
    const rotated = await t.app.request(`/api/event-destinations/${id}/rotate-secret`, keyed({}, rotateKey));
    const rotatedText = await rotated.text();
    expect(rotated.status).toBe(200);
    const replayed = await t.app.request(`/api/event-destinations/${id}/rotate-secret`, keyed({}, rotateKey));
    expect(snapshot(replayed, await replayed.text())).toEqual(snapshot(rotated, rotatedText));
    const newSecret = (JSON.parse(rotatedText) as { data: { secret: string } }).data.secret;
    expect(newSecret).not.toBe(secret);
    // A new key rotates again: the replay did not.
    const next = await t.app.request(`/api/event-destinations/${id}/rotate-secret`, keyed({}, randomUUID()));
    expect(((await next.json()) as { data: { secret: string } }).data.secret).not.toBe(newSecret);
  });
});
