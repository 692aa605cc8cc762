/** Event destinations (docs/api.md#outbound-events) through the HTTP app on DynamoDB Local: validation, the secret shown once, rotation, the limit of 20. */
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { DestinationStore } from "../../core/src/events/destination-store.js";
import { EventDeliveries } from "../../core/src/events/event-deliveries.js";
import { EventDeliveryStore } from "../../core/src/events/event-delivery-store.js";
import { createApp, type Db } from "../../core/src/index.js";
import { type OutboundGuard, publicOnlyGuard } from "../../core/src/outbound-guard.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testConfig } from "../helpers/db.js";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});

/** The fields these tests read of an answer's destination. */
interface Shown {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
  [field: string]: unknown;
}

async function create(body: unknown) {
  const response = await t.app.request("/api/event-destinations", jsonPost(body));
  return { status: response.status, headers: response.headers, body: (await response.json()) as { data: Shown } };
}

const valid = { url: "https://hooks.example.com/kaizen", events: ["issue.created", "dispatch.failed"] };

describe("event destinations", () => {
  it("creates one and shows its secret in that answer only", async () => {
    const made = await create({ ...valid, description: "team chat" });
    expect(made.status).toBe(201);
    const { data } = made.body;
    expect(data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(data).toMatchObject({
      url: valid.url,
      events: valid.events,
      description: "team chat",
      active: true,
      consecutiveFailures: 0,
      deactivatedReason: null,
    });
    expect(made.headers.get("Location")).toBe(`/api/event-destinations/${data.id}`);
    expect(made.headers.get("Cache-Control")).toBe("no-store");
    const read = await t.app.request(`/api/event-destinations/${data.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    const shown = ((await read.json()) as { data: Record<string, unknown> }).data;
    expect(shown).not.toHaveProperty("secret");
    expect(JSON.stringify(shown)).not.toContain(data.secret);
    const listed = await (await t.app.request("/api/event-destinations", { headers: AUTH })).text();
    expect(listed).not.toContain(data.secret);
  });

  it.each([
    [
      { ...valid, url: "http://hooks.example.com/x" },
      "url: must be https (plain http only to localhost, 127.0.0.1 or [::1])",
    ],
    [{ ...valid, url: "hooks.example.com" }, "url: must be an absolute URL"],
    [{ ...valid, url: "https://user:pw@hooks.example.com/" }, "url: must not carry a user name or password"],
    [{ ...valid, url: "ftp://localhost/x" }, "url: must be https (plain http only to localhost, 127.0.0.1 or [::1])"],
    [{ ...valid, events: [] }, "events: must name at least one event"],
    [{ ...valid, events: ["issue.created", "issue.created"] }, "events: must name each event at most once"],
    [{ ...valid, events: ["issue.deleted"] }, "events.0"],
    [{ ...valid, extra: 1 }, "extra"],
  ])("refuses %j with a 400 naming the field", async (body, message) => {
    const made = await create(body);
    expect(made.status).toBe(400);
    expect(JSON.stringify(made.body)).toContain(message);
  });

  it.each(["http://localhost:9000/x", "http://127.0.0.1/x", "http://[::1]:8080/x"])(
    "takes plain http to %s",
    async (url) => {
      expect((await create({ ...valid, url })).status).toBe(201);
    },
  );

  it("changes one at its version and deletes it", async () => {
    const { data } = (await create(valid)).body;
    const patched = await t.app.request(`/api/event-destinations/${data.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json", "If-Match": '"1"' },
      body: JSON.stringify({ events: ["experiment.decided"], active: false }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("ETag")).toBe('"2"');
    expect(((await patched.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      events: ["experiment.decided"],
      active: false,
    });
    const stale = await t.app.request(`/api/event-destinations/${data.id}`, {
      method: "DELETE",
      headers: { ...AUTH, "If-Match": '"1"' },
    });
    expect(stale.status).toBe(412);
    const deleted = await t.app.request(`/api/event-destinations/${data.id}`, { method: "DELETE", headers: AUTH });
    expect(deleted.status).toBe(204);
    const gone = await t.app.request(`/api/event-destinations/${data.id}`, { headers: AUTH });
    expect(gone.status).toBe(404);
  });

  it("rotates the secret: a new one, shown once, the old one signing until 24 h later", async () => {
    const { data } = (await create(valid)).body;
    // It takes no body: one that says anything is refused, and the secret stays as it was.
    for (const [body, error] of [
      ['{"bogus":true}', "unknown field: bogus"],
      ["notjson", "Malformed JSON body"],
    ]) {
      const refused = await t.app.request(`/api/event-destinations/${data.id}/rotate-secret`, {
        method: "POST",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body,
      });
      expect(refused.status, body).toBe(400);
      expect(await refused.json(), body).toMatchObject({ error });
    }
    const unrotated = await t.app.request(`/api/event-destinations/${data.id}`, { headers: AUTH });
    expect(unrotated.headers.get("etag")).toBe('"1"');
    expect(((await unrotated.json()) as { data: Shown }).data.previousSecretExpiresAt).toBeNull();
    const before = Date.now();
    const rotated = await t.app.request(`/api/event-destinations/${data.id}/rotate-secret`, jsonPost({}));
    expect(rotated.status).toBe(200);
    const after = ((await rotated.json()) as { data: Shown }).data;
    expect(after.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(after.secret).not.toBe(data.secret);
    const overlapEnds = Date.parse(after.previousSecretExpiresAt);
    expect(overlapEnds).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1_000);
    expect(overlapEnds).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
  });

  it("answers 404 for unknown ids and 400 for bad pages", async () => {
    for (const path of [
      "/api/event-destinations/dst_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "/api/event-destinations/nope",
      "/api/event-destinations/dst_01ARZ3NDEKTSV4RRFFQ69G5FAV/deliveries",
    ]) {
      expect((await t.app.request(path, { headers: AUTH })).status).toBe(404);
    }
    expect((await t.app.request("/api/event-destinations?limit=0", { headers: AUTH })).status).toBe(400);
  });

  it("holds at most 20, also when they are asked for all at once", async () => {
    const fresh = await testApp();
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => fresh.app.request("/api/event-destinations", jsonPost(valid))),
    );
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    const refused = answers.find((response) => response.status === 409);
    expect(await refused?.json()).toEqual({ error: "There are 20 event destinations already; delete one first" });
    const list = await fresh.app.request("/api/event-destinations?limit=100", { headers: AUTH });
    expect(((await list.json()) as { total: number }).total).toBe(20);
    // Deleting one frees a place.
    const first = (
      (await (await fresh.app.request("/api/event-destinations", { headers: AUTH })).json()) as { data: Shown[] }
    ).data[0];
    expect(
      (await fresh.app.request(`/api/event-destinations/${first?.id}`, { method: "DELETE", headers: AUTH })).status,
    ).toBe(204);
    expect((await fresh.app.request("/api/event-destinations", jsonPost(valid))).status).toBe(201);
  });
});

/**
 * An issue's creation handed to deliveries guarded by `guard` (the senders' own default when
 * omitted): nothing is sent, and destination `destinationId` keeps one attempt failed as `blocked address`.
 */
async function expectBlockedSend(db: Db, destinationId: string, guard?: OutboundGuard) {
  let sent = 0;
  const deliveries = new EventDeliveries(new DestinationStore(db), new EventDeliveryStore(db), {
    ...(guard ? { guard } : {}),
    send: async () => {
      sent += 1;
      return { ok: true, responseStatus: 204, durationMs: 1, error: null };
    },
  });
  const issue = { entity: "issue", id: "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV", number: 1, title: "t", status: "todo" };
  await deliveries.handleChanges([
    { id: "r-1", kind: "INSERT", sequenceNumber: "1", keys: { pk: "p", sk: "s" }, at: Date.now(), newImage: issue },
  ]);
  expect(sent).toBe(0);
  const { deliveries: kept } = await new EventDeliveryStore(db).page(destinationId, 0, 10);
  expect(kept.map((delivery) => delivery.attempts.map(({ error }) => error))).toEqual([["blocked address"]]);
}

describe("event destinations on a deployed stage (docs/security.md#outbound-requests)", () => {
  it("refuses a URL inside the network at create and at a change, and blocks a send to a name that turned inside", async () => {
    const answers: Record<string, string[]> = {
      "hooks.example.com": ["140.82.112.3"],
      "inside.example.com": ["10.0.0.12"],
    };
    const outboundGuard = publicOnlyGuard(async (hostname) => answers[hostname] ?? []);
    const deployed = await testApp({ outboundGuard });
    const refusedMessage = "url: must not resolve to a loopback, private, link-local or unique-local address";
    for (const url of [
      "https://inside.example.com/kaizen",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00:ec2::254]/latest",
      "http://localhost:8080/kaizen",
    ]) {
      const refused = await deployed.app.request("/api/event-destinations", jsonPost({ ...valid, url }));
      expect(refused.status, url).toBe(400);
      expect(await refused.json(), url).toMatchObject({ error: refusedMessage });
    }
    const made = await deployed.app.request("/api/event-destinations", jsonPost(valid));
    expect(made.status).toBe(201);
    const { data } = (await made.json()) as { data: Shown };
    const patched = await deployed.app.request(`/api/event-destinations/${data.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ url: "https://inside.example.com/kaizen" }),
    });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toMatchObject({ error: refusedMessage });

    // The name the destination was created with now answers with a private address: nothing is sent.
    answers["hooks.example.com"] = ["192.168.0.10"];
    await expectBlockedSend(deployed.db, data.id, outboundGuard);
  });

  it("refuses inside the network when no guard is named, as a deployed function names none", async () => {
    // A destination made through the local server's open guard, then the same table as a function sees it.
    const local = await testApp();
    const url = "http://127.0.0.1:9/kaizen";
    const made = await local.app.request("/api/event-destinations", jsonPost({ ...valid, url }));
    expect(made.status).toBe(201);
    const { data } = (await made.json()) as { data: Shown };
    const unguarded = createApp(ALL_FAMILIES, {
      config: testConfig({ tableName: local.tableName, endpoint: local.endpoint }),
      db: local.db,
    });
    const refused = await unguarded.request("/api/event-destinations", jsonPost({ ...valid, url }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "url: must not resolve to a loopback, private, link-local or unique-local address",
    });
    // Deliveries built with no guard, as a deployed function builds them.
    await expectBlockedSend(local.db, data.id);
  });
});
