/**
 * Redeliveries as deployed (docs/api.md#what-a-signal-does: a delivery id stored before is a duplicate, and nothing
 * new is written). The same delivery arriving on several one-request instances at once (Lambda),
 * with AWS's transaction conflicts emulated and not: one instance stores it, the others wait for it
 * and answer with its signal, without routing the delivery again — no issue number is taken for
 * nothing. Fails on deliveries told apart only by the condition of the signal's transaction: through
 * a fleet every copy reads the id as unseen, takes an issue number and sends a transaction bound to
 * fail. Then the reservation that lets them wait, when its request is slow or gone: a redelivery
 * takes over a reservation that lapsed, answers with the signal of a request that finishes, answers
 * 503 with `Retry-After` when none does in time, and a request that outlived its reservation
 * answers as a duplicate of the one that took it over.
 */

import { afterEach, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, createDb } from "../../core/src/index.js";
import { deliveryKey } from "../../core/src/signals/keys.js";
import { WEBHOOK_DELIVERY_PENDING_MESSAGE } from "../../core/src/signals/webhook-delivery-claims.js";
import type { Fleet } from "../../testkit/fleet.js";
import { AUTH, dataOf, fleetOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { CONFLICT_MODES, testConfig } from "../helpers/db.js";
import { codehostDelivery, issueEvent, type SignedDelivery } from "../helpers/deliveries.js";

interface Ingested {
  signal: { id: string; issueId: string | null };
  issue: { number: number } | null;
  duplicate: boolean;
}
interface Answer {
  status: number;
  data: Ingested;
  headers: Headers;
  body: { error?: string };
}

const fleets: Fleet[] = [];
afterEach(() => {
  for (const fleet of fleets.splice(0)) fleet.destroy();
});

async function deliver(to: Requester, delivery: SignedDelivery): Promise<Answer> {
  const response = await to.request(delivery.path, delivery.init);
  const body = (await response.json()) as { data: Ingested; error?: string };
  return { status: response.status, data: body.data, headers: response.headers, body };
}

/** A code-host `issues.opened` delivery of issue `number`: stored, it opens a Kaizen issue. */
const opened = (number: number) => codehostDelivery("issues", issueEvent("opened", number));

/** The key of `delivery`'s id item. */
const keyOf = (delivery: SignedDelivery) =>
  deliveryKey("codehost", delivery.init.headers["X-Codehost-Delivery"] as string);

/** Writes a reservation of `delivery`'s id as a request storing it would, by signal `by`, until `until`. */
async function reserve(t: TestApp, delivery: SignedDelivery, by: string, until: number): Promise<void> {
  await t.db.put({ Item: { ...keyOf(delivery), reservedBy: by, reservedUntil: until } });
}

async function signalCount(t: TestApp): Promise<number> {
  const response = await t.app.request("/api/signals?limit=1", { headers: AUTH });
  return ((await response.json()) as { total: number }).total;
}

describe.each(CONFLICT_MODES)("the same delivery on many instances at once ($mode)", ({ emulateConflicts }) => {
  it("8 copies each of 3 deliveries at once: 3 stored, 21 duplicates of them, no issue number skipped", async () => {
    const t = await testApp({}, { emulateConflicts });
    const fleet = fleetOf(t, emulateConflicts);
    fleets.push(fleet);
    const deliveries = [101, 102, 103].map(opened);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => deliver(fleet, deliveries[i % 3] as SignedDelivery)),
    );
    expect(fleet.instances.length).toBeGreaterThan(8);
    const stored = answers.filter((answer) => answer.status === 201);
    expect(stored).toHaveLength(3);
    for (const [i, answer] of answers.entries()) {
      const first = answers.find((other, j) => j % 3 === i % 3 && other.status === 201);
      expect(answer.status === 201 || answer.status === 200).toBe(true);
      expect(answer.data.duplicate).toBe(answer.status === 200);
      expect(answer.data.signal.id).toBe(first?.data.signal.id);
      expect(answer.data.issue?.number).toBe(first?.data.issue?.number);
    }
    expect(stored.map((answer) => answer.data.issue?.number).sort()).toEqual([1, 2, 3]);
    expect(await signalCount(t)).toBe(3);
    // The copies that waited took no number: the next issue is the fourth.
    const next = await dataOf<{ number: number }>(
      t.app.request("/api/issues", jsonPost({ title: "After the storm", type: "task" })),
      201,
    );
    expect(next.number).toBe(4);
  });
});

describe("a delivery whose id another request reserved", () => {
  // On a clock the test moves (../helpers/clock.ts): the redelivery's waits move it on at once, so
  // reservations lapse and the wait for them ends without sleeping through them.
  it("takes over a reservation that lapsed (its request died), and stores the delivery once", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const delivery = opened(7);
    const lapses = clock().getTime() + 1_500;
    await reserve(t, delivery, "sig_01JDEADREQVEST0000000000000", lapses);
    const answer = await deliver(t.app, delivery);
    expect(answer.status).toBe(201);
    expect(clock().getTime()).toBeGreaterThanOrEqual(lapses);
    const again = await deliver(t.app, delivery);
    expect(again).toMatchObject({ status: 200, data: { duplicate: true, signal: { id: answer.data.signal.id } } });
    expect(await signalCount(t)).toBe(1);
  });

  it("answers with the signal of the request holding it once that request has stored it", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const first = await deliver(t.app, opened(8));
    expect(first.status).toBe(201);
    const delivery = codehostDelivery("issues", issueEvent("edited", 8));
    await reserve(t, delivery, "sig_01JSLOWREQVEST0000000000000", clock().getTime() + 5_000);
    // The holder stores it while the redelivery waits: its delivery now names its signal (here, the
    // first one's) when the redelivery looks again.
    let looks = 0;
    t.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: { pk: string; sk: string } }).Key;
        const ofDelivery = key?.pk === keyOf(delivery).pk && key.sk === keyOf(delivery).sk;
        if (context.commandName === "GetItemCommand" && ofDelivery && ++looks === 1) {
          await t.db.put({
            Item: { ...keyOf(delivery), signalId: first.data.signal.id, issueId: first.data.signal.issueId },
          });
        }
        return next(args);
      },
      { step: "initialize", name: "holderStoresMeanwhile" },
    );
    expect(await deliver(t.app, delivery)).toMatchObject({
      status: 200,
      data: { duplicate: true, signal: { id: first.data.signal.id }, issue: { number: 1 } },
    });
    expect(looks).toBeGreaterThan(0);
    expect(await signalCount(t)).toBe(1);
  });

  it("answers 503 with Retry-After when the request holding it neither stores it nor lapses in time", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const delivery = opened(9);
    const lapses = clock().getTime() + 20_000;
    await reserve(t, delivery, "sig_01JSTVCKREQVEST0000000000000", lapses);
    const answer = await deliver(t.app, delivery);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe(WEBHOOK_DELIVERY_PENDING_MESSAGE);
    const retryAfter = Number(answer.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((lapses - clock().getTime()) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((lapses - clock().getTime()) / 1000) + 1);
    expect(await signalCount(t)).toBe(0);
  });

  it("a request that outlives its reservation answers as a duplicate of the one that took it over", async () => {
    const clock = testClock();
    const t = await testApp({ clock }, { emulateConflicts: false });
    // One instance whose transactions leave only once the redelivery has been answered, longer
    // than a reservation lasts …
    let entered: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowDb = createDb({ tableName: t.tableName, region: "us-east-1", endpoint: t.endpoint });
    slowDb.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "TransactWriteItemsCommand") {
          entered();
          await released;
        }
        return next(args);
      },
      { step: "initialize", priority: "high", name: "slowTransactions" },
    );
    const config = testConfig({ tableName: t.tableName, endpoint: t.endpoint });
    const slow = createApp(ALL_FAMILIES, { config, db: slowDb, clock });
    // … the first to get a delivery, which it has reserved when its transaction is held; the
    // redelivery reaches another instance meanwhile.
    const delivery = opened(10);
    const first = deliver(slow, delivery);
    await holding;
    const reservedAt = clock().getTime();
    const second = await deliver(t.app, delivery);
    // It took the delivery over once the first one's reservation had lapsed.
    expect(clock().getTime() - reservedAt).toBeGreaterThanOrEqual(5_000);
    release();
    const late = await first;
    slowDb.client.destroy();
    expect(second.status).toBe(201);
    expect(late).toMatchObject({ status: 200, data: { duplicate: true, signal: { id: second.data.signal.id } } });
    expect(await signalCount(t)).toBe(1);
  });
});
