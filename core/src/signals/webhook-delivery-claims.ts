/**
 * @module signals/webhook-delivery-claims — a webhook delivery id held by the one request storing
 * it: a conditional put reserves it for a lease, a redelivery meanwhile waits (polling with
 * backoff) until the first is stored, and past a while answers 503 for the provider to retry.
 * The reservation items are ./signal-store.ts's.
 */
import { type Clock, type SteadyClock, steadyClock } from "../clock.js";
import { pollBackoff } from "../db/retry.js";
import { UnavailableError } from "../errors.js";
import type { SignalStore, StoredWebhookDelivery } from "./signal-store.js";

/**
 * How long a webhook delivery id stays reserved by the request storing it. A webhook delivery is stored in well
 * under a second, so this only decides how soon a redelivery takes over a reservation whose request
 * died (its function timed out, or the database went away before it could give it up). A request
 * slower than this loses the webhook delivery to the one that took it over: one of them stores it, and the
 * other answers as a duplicate.
 */
const WEBHOOK_DELIVERY_LEASE_MS = 5_000;
/** How long a redelivery waits for the same webhook delivery to be stored before answering 503 (past a lapse). */
const WEBHOOK_DELIVERY_WAIT_MS = 8_000;
/** The 503's message when the same webhook delivery is still being stored by another request. */
export const WEBHOOK_DELIVERY_PENDING_MESSAGE = "This delivery is still being stored; retry shortly";

export class WebhookDeliveryClaims {
  /** What reservations last and redeliveries wait on: `clock` when it can wait (core/src/clock.ts). */
  private readonly clock: SteadyClock;

  constructor(
    private readonly signals: SignalStore,
    clock?: Clock,
  ) {
    this.clock = steadyClock(clock);
  }

  /**
   * Takes webhook delivery id `deliveryId` for signal `signalId`: null when this request now holds it, or
   * the stored webhook delivery when another request stored it first — waiting, while one is storing it,
   * until it has (polling with backoff; after {@link WEBHOOK_DELIVERY_WAIT_MS}, a 503 the provider retries).
   */
  async take(source: string, deliveryId: string, signalId: string): Promise<StoredWebhookDelivery | null> {
    const now = () => this.clock().getTime();
    const reserve = () => {
      const at = now();
      return this.signals.reserveWebhookDelivery(source, deliveryId, signalId, at, at + WEBHOOK_DELIVERY_LEASE_MS);
    };
    const deadline = now() + WEBHOOK_DELIVERY_WAIT_MS;
    let found = await reserve();
    for (let n = 1; ; n++) {
      if (found.state === "reserved") return null;
      if (found.state === "stored") return found.delivery;
      if (now() >= deadline) {
        // At the latest, the reservation has lapsed by then (its request died) and may be taken.
        const retryAfterSeconds = Math.max(1, Math.ceil((found.until - now()) / 1000));
        throw new UnavailableError(WEBHOOK_DELIVERY_PENDING_MESSAGE, { retryAfterSeconds });
      }
      await pollBackoff(n, this.clock);
      const state = await this.signals.webhookDeliveryState(source, deliveryId);
      found = state === null || (state.state === "pending" && state.until < now()) ? await reserve() : state;
    }
  }
}
