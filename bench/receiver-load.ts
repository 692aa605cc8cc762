/**
 * @module bench/receiver-load — the webhook loads of the throughput section: signed code-host
 * deliveries, each with its own delivery id and signature (grouped `issues.edited` over a handful
 * of repository issues), and the same delivery over and over (every one after the first a duplicate).
 */
import type { Db } from "../core/src/index.js";
import { SignalService } from "../core/src/signals/service.js";
import { codehostDelivery, type Delivery, draftOf, issueEvent } from "./deliveries.js";
import type { Target } from "./throughput.js";

/** Repository issue numbers the grouped load cycles through (the cost cases use another). */
export const LOAD_ISSUE_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/**
 * `issues.edited` deliveries cycling over LOAD_ISSUE_NUMBERS, each new: the first per number opens
 * an issue (during the warm-up), every later one is grouped into it.
 */
export function groupedDeliveriesTarget(db: Db): Target {
  const signals = new SignalService(db);
  let sent = 0;
  const next = (): Delivery => {
    const number = LOAD_ISSUE_NUMBERS[sent++ % LOAD_ISSUE_NUMBERS.length] ?? 1;
    return codehostDelivery("issues", issueEvent("edited", number));
  };
  return {
    label: "receiver",
    path: "/api/signals/codehost",
    variant: `unique ids, issues.edited over ${LOAD_ISSUE_NUMBERS.length} issues`,
    delivery: next,
    expectStatus: 201,
    direct: () => signals.ingest(draftOf(next())),
  };
}

/** One delivery, the same id and bytes every time: stored once, then answered as a duplicate. */
export function duplicateDeliveryTarget(db: Db): Target {
  const signals = new SignalService(db);
  const delivery = codehostDelivery("issues", issueEvent("edited", LOAD_ISSUE_NUMBERS[0]));
  const draft = draftOf(delivery);
  return {
    label: "receiver, duplicate",
    path: delivery.path,
    variant: "one delivery id, duplicates",
    delivery: () => delivery,
    expectStatus: 200,
    direct: () => signals.ingest(draft),
  };
}
