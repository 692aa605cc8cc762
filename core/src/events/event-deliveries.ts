/**
 * @module events/event-deliveries — events from the change stream to their destinations (docs/api.md#outbound-events).
 *
 * {@link EventDeliveries.handleChanges} takes one batch of the table's change stream (from the
 * Lambda subscribed to it, or from the local stack's reader): it derives the batch's events
 * (./derive.ts), writes one event delivery per event and active destination that asked for its type, and
 * makes each event delivery's first attempt at once. An event delivery is written once whatever number of times
 * its batch is handed over; one already there is left to its own attempts.
 *
 * An attempt that fails leaves the event delivery pending and due again after an exponential backoff with
 * jitter (the first retry within 30 s), for 24 h; then it is `failed`. {@link EventDeliveries.sweep}
 * makes the attempts that are due. Every attempt takes the event delivery under a short lease, so two
 * sweepers (or a sweeper and a manual retry) never send it at once, and is appended to it. A
 * destination whose attempts fail {@link DEACTIVATE_AFTER_FAILURES} times in a row is switched off.
 */

import type { ChangeRecord } from "../db/changes.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { type OutboundGuard, publicOnlyGuard } from "../outbound-guard.js";
import { eventsOf } from "./derive.js";
import { DEACTIVATE_AFTER_FAILURES, type DestinationStore, type StoredDestination } from "./destination-store.js";
import type { EventDeliveryStore, StoredEventDelivery } from "./event-delivery-store.js";
import { deliveryId } from "./keys.js";
import type { EventDelivery, EventDeliveryAttempt, EventDeliveryStatus } from "./schemas.js";
import { SEND_TIMEOUT_MS, type Sending, type SendResult, sendEvent } from "./sender.js";

export { DEACTIVATE_AFTER_FAILURES };

/** How long event deliveries are retried, from the event (docs/api.md#outbound-events). */
export const RETRY_FOR_MS = 24 * 3_600_000;
/** The backoff's first step: the first retry comes 15–30 s after the first attempt. */
export const FIRST_RETRY_MS = 30_000;
/** The longest wait between two automatic attempts. */
export const MAX_RETRY_MS = 4 * 3_600_000;
/** A taken event delivery is left to its taker this long: one attempt's timeout and some. */
const LEASE_MS = SEND_TIMEOUT_MS + 20_000;
/** Event deliveries attempted at once by one handler. */
const PARALLEL_SENDS = 16;
/** Event deliveries one sweep takes at most. */
const SWEEP_BATCH = 50;

/**
 * The wait before automatic attempt `failures + 1`, after `failures` failed ones: "equal jitter",
 * half the step fixed and half drawn, the step doubling from {@link FIRST_RETRY_MS} up to {@link MAX_RETRY_MS}.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const step = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);
  return step / 2 + random() * (step / 2);
}

/** How {@link EventDeliveries} sends, tells the time, draws its jitter and asks to be woken for a retry. */
export interface EventDeliveryOptions {
  send?: (sending: Sending) => Promise<SendResult>;
  /**
   * How long a destination has to answer an attempt made with {@link sendEvent} (the default `send`):
   * {@link SEND_TIMEOUT_MS}, the documented 10 s, when omitted; tests of the cut shorten it.
   */
  sendTimeoutMs?: number;
  now?: () => Date;
  random?: () => number;
  /**
   * Asks for a sweep when a retry is due: deployed, a delayed message of the retry queue
   * (aws/wakeups.ts); locally none is needed, the local stack sweeps every second.
   */
  wake?: (at: Date) => Promise<void>;
  /** Where attempts may go (docs/security.md#outbound-requests); public addresses only when omitted (the local server passes the open guard). */
  guard?: OutboundGuard;
}

export class EventDeliveries {
  private readonly send: (sending: Sending) => Promise<SendResult>;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly wake: ((at: Date) => Promise<void>) | undefined;
  private readonly guard: OutboundGuard;

  constructor(
    private readonly destinations: DestinationStore,
    private readonly deliveries: EventDeliveryStore,
    options: EventDeliveryOptions = {},
  ) {
    const { sendTimeoutMs } = options;
    this.send = options.send ?? ((sending) => sendEvent(sending, sendTimeoutMs));
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.wake = options.wake;
    this.guard = options.guard ?? publicOnlyGuard();
  }

  /** Derives the events of one batch of the change stream and sends them; safe to call twice with one batch. */
  async handleChanges(changes: readonly ChangeRecord[]): Promise<void> {
    const events = changes.flatMap(eventsOf);
    if (events.length === 0) return;
    const destinations = (await this.destinations.all()).filter(({ destination }) => destination.active);
    const work: (() => Promise<void>)[] = [];
    for (const event of events) {
      const body = JSON.stringify(event);
      for (const target of destinations.filter(({ destination }) => destination.events.includes(event.type))) {
        work.push(async () => {
          const now = this.now();
          const id = deliveryId(event.id, target.destination.id);
          const fields = { id, destinationId: target.destination.id, eventId: event.id, eventType: event.type, body };
          const created = await this.deliveries.create(fields, now, new Date(now.getTime() + LEASE_MS));
          if (!created) return; // Written by an earlier read of this batch: its own attempts carry on.
          const delivery: EventDelivery = {
            ...fields,
            status: "pending",
            nextAttemptAt: null,
            attempts: [],
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          };
          await this.attempt({ delivery, body }, target, "automatic");
        });
      }
    }
    await inParallel(work, PARALLEL_SENDS);
  }

  /** Makes the automatic attempts that are due; answers how many it made. */
  async sweep(): Promise<number> {
    const ids = await this.deliveries.due(this.now(), SWEEP_BATCH);
    if (ids.length === 0) return 0;
    const byId = new Map((await this.destinations.all()).map((stored) => [stored.destination.id, stored]));
    let made = 0;
    await inParallel(
      ids.map((id) => async () => {
        const now = this.now();
        const taken = await this.deliveries.take(id, now, new Date(now.getTime() + LEASE_MS), false);
        if (!taken) return; // Someone else took it, or it is no longer pending.
        made++;
        await this.attempt(taken, byId.get(taken.delivery.destinationId), "automatic");
      }),
      PARALLEL_SENDS,
    );
    return made;
  }

  /**
   * Sends event delivery `id` of destination `destinationId` once more, now, whatever its status: its
   * schedule stays as it was unless this attempt succeeds. 404 for an event delivery of another
   * destination; 409 while another attempt of it is under way.
   */
  async retry(destinationId: string, id: string): Promise<EventDelivery> {
    const found = await this.deliveries.get(id);
    if (!found || found.delivery.destinationId !== destinationId) {
      throw new NotFoundError(`Delivery ${id} of event destination ${destinationId} not found`);
    }
    const target = await this.destinations.get(destinationId);
    const now = this.now();
    const taken = await this.deliveries.take(id, now, new Date(now.getTime() + LEASE_MS), true);
    if (!taken) throw new ConflictError(`Delivery ${id} is being attempted right now; try again in a few seconds`);
    return this.attempt(taken, target, "manual");
  }

  /** One attempt of an event delivery the caller holds, recorded, with its effect on the destination's run of failures. */
  private async attempt(
    { delivery, body }: StoredEventDelivery,
    target: StoredDestination | undefined,
    trigger: EventDeliveryAttempt["trigger"],
  ): Promise<EventDelivery> {
    const at = this.now();
    const sendable = target?.destination.active === true;
    // Checked at every attempt: a name whose answer changed since the URL was set is caught here.
    const refused = sendable ? await this.guard.refusal(target.destination.url) : null;
    const result: SendResult = refused
      ? { ok: false, responseStatus: null, durationMs: 0, error: refused }
      : sendable
        ? await this.send({
            url: target.destination.url,
            eventId: delivery.eventId,
            eventType: delivery.eventType,
            body,
            secrets: signingSecrets(target, at),
          })
        : {
            ok: false,
            responseStatus: null,
            durationMs: 0,
            error: target ? "not sent: the destination is inactive" : "not sent: the destination was deleted",
          };
    const attempt: EventDeliveryAttempt = {
      at: at.toISOString(),
      outcome: result.ok ? "succeeded" : "failed",
      responseStatus: result.responseStatus,
      durationMs: result.durationMs,
      error: result.error,
      trigger,
    };
    // Nothing is sent to a destination switched off or deleted: the event delivery ends there (a manual
    // retry can send it once the destination is on again).
    const { status, nextAttemptAt } = sendable
      ? this.after(delivery, result.ok, trigger, at)
      : { status: "failed" as const, nextAttemptAt: null };
    const recorded = await this.deliveries.recordAttempt(delivery.id, attempt, status, nextAttemptAt);
    if (nextAttemptAt && nextAttemptAt !== delivery.nextAttemptAt) await this.wake?.(new Date(nextAttemptAt));
    if (sendable && target) {
      if (result.ok) await this.destinations.recordSuccess(target);
      else await this.destinations.recordFailure(target.destination.id, result.error ?? "failed", at);
    }
    return recorded;
  }

  /** An event delivery's status and next automatic attempt after an attempt at `at`. */
  private after(
    delivery: EventDelivery,
    ok: boolean,
    trigger: EventDeliveryAttempt["trigger"],
    at: Date,
  ): { status: EventDeliveryStatus; nextAttemptAt: string | null } {
    if (ok) return { status: "succeeded", nextAttemptAt: null };
    // A manual attempt that fails leaves the schedule as it was.
    if (trigger === "manual") return { status: delivery.status, nextAttemptAt: delivery.nextAttemptAt };
    const failures = delivery.attempts.filter((a) => a.trigger === "automatic" && a.outcome === "failed").length + 1;
    const next = at.getTime() + retryDelayMs(failures, this.random);
    if (next > Date.parse(delivery.createdAt) + RETRY_FOR_MS) return { status: "failed", nextAttemptAt: null };
    return { status: "pending", nextAttemptAt: new Date(next).toISOString() };
  }
}

/** The secrets that sign for `target` at `now`: its own, and the one before a rotation for 24 h. */
function signingSecrets(target: StoredDestination, now: Date): string[] {
  const { previousSecretExpiresAt } = target.destination;
  const previousSigns =
    target.previousSecret && previousSecretExpiresAt && Date.parse(previousSecretExpiresAt) > now.getTime();
  return previousSigns && target.previousSecret ? [target.secret, target.previousSecret] : [target.secret];
}

/** Runs `work` with at most `limit` under way at once. */
async function inParallel(work: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < work.length) {
      const job = work[next++];
      await job?.().catch((error: unknown) => errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
