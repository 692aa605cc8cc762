/**
 * @module events/destination-service — event destinations (docs/api.md#outbound-events): made with a signing secret shown once,
 * listed, read, changed at their version, rotated (the old secret signs beside the new one for
 * 24 h), deleted; and their event deliveries listed and sent again.
 */

import { fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { type OutboundGuard, publicOnlyGuard } from "../outbound-guard.js";
import type { DestinationStore, StoredDestination } from "./destination-store.js";
import type { EventDeliveries } from "./event-deliveries.js";
import type { EventDeliveryStore } from "./event-delivery-store.js";
import { newDestinationId } from "./keys.js";
import {
  type CreateDestinationBody,
  DESTINATION_ID,
  type Destination,
  type DestinationWithSecret,
  EVENT_DELIVERY_ID,
  type EventDelivery,
  type PatchDestinationBody,
} from "./schemas.js";
import { newSigningSecret } from "./signing.js";

/** How long the secret before a rotation still signs (docs/api.md#outbound-events via the issue: "old and new both sign for 24 h"). */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export class DestinationService {
  constructor(
    private readonly store: DestinationStore,
    private readonly deliveries: EventDeliveryStore,
    private readonly sending: Pick<EventDeliveries, "retry">,
    private readonly now: () => Date = () => new Date(),
    /** Where events may be sent (docs/security.md#outbound-requests): a URL it refuses is a 400; public addresses only by default. */
    private readonly guard: OutboundGuard = publicOnlyGuard(),
  ) {}

  async create(input: CreateDestinationBody): Promise<{ destination: DestinationWithSecret; version: number }> {
    await this.checkReachable(input.url);
    const { id, createdAt } = newDestinationId(this.now().getTime());
    const destination: Destination = {
      id,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      active: input.active ?? true,
      deactivatedReason: null,
      deactivatedAt: null,
      consecutiveFailures: 0,
      previousSecretExpiresAt: null,
      createdAt,
      updatedAt: createdAt,
    };
    const stored = await this.store.create(destination, newSigningSecret());
    return { destination: { ...stored.destination, secret: stored.secret }, version: stored.version };
  }

  /** A page of the destinations, oldest first. */
  async list(page: { offset: number; limit: number }): Promise<{ destinations: Destination[]; total: number }> {
    const all = await this.store.all();
    return {
      destinations: all.slice(page.offset, page.offset + page.limit).map(({ destination }) => destination),
      total: all.length,
    };
  }

  async get(id: string): Promise<StoredDestination> {
    const found = DESTINATION_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Event destination ${id} not found`);
    return found;
  }

  /**
   * Changes the fields given. `active: true` on a destination Kaizen switched off starts its run of
   * failures again from 0 and clears why it was switched off.
   */
  async update(
    id: string,
    changes: PatchDestinationBody,
    expected: ExpectedVersions | undefined,
  ): Promise<StoredDestination> {
    const current = await this.get(id);
    checkVersion(expected, current.version);
    if (changes.url !== undefined) await this.checkReachable(changes.url);
    const { destination } = current;
    const reactivated = changes.active === true && !destination.active;
    const updated: Destination = {
      ...destination,
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.events === undefined ? {} : { events: changes.events }),
      ...(changes.description === undefined ? {} : { description: changes.description }),
      ...(changes.active === undefined ? {} : { active: changes.active }),
      ...(reactivated ? { consecutiveFailures: 0, deactivatedReason: null, deactivatedAt: null } : {}),
      updatedAt: this.now().toISOString(),
    };
    return this.store.replace(current, updated);
  }

  /** A 400 for a URL events may not be sent to from here (its host is, or resolves to, an address inside a network). */
  private async checkReachable(url: string): Promise<void> {
    const refusal = await this.guard.refusal(url);
    if (refusal === null) return;
    const message = "must not resolve to a loopback, private, link-local or unique-local address";
    throw fieldError("url", message);
  }

  /** A new signing secret, shown this once; the one it replaces signs beside it for {@link ROTATION_OVERLAP_MS}. */
  async rotateSecret(
    id: string,
    expected: ExpectedVersions | undefined,
  ): Promise<{ destination: DestinationWithSecret; version: number }> {
    const current = await this.get(id);
    checkVersion(expected, current.version);
    const now = this.now();
    const secret = newSigningSecret();
    const updated: Destination = {
      ...current.destination,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    };
    const stored = await this.store.replace(current, updated, { secret, previousSecret: current.secret });
    return { destination: { ...stored.destination, secret }, version: stored.version };
  }

  async delete(id: string, expected: ExpectedVersions | undefined): Promise<void> {
    const current = await this.get(id);
    checkVersion(expected, current.version);
    await this.store.delete(current);
  }

  /** A page of a destination's event deliveries, newest first, with their attempts. */
  async eventDeliveriesOf(
    id: string,
    page: { offset: number; limit: number },
  ): Promise<{ deliveries: EventDelivery[]; total: number }> {
    const { destination } = await this.get(id);
    return this.deliveries.page(destination.id, page.offset, page.limit);
  }

  /** Sends an event delivery again now (see {@link EventDeliveries.retry}). */
  async retryEventDelivery(id: string, deliveryId: string): Promise<EventDelivery> {
    const { destination } = await this.get(id);
    if (!EVENT_DELIVERY_ID.test(deliveryId))
      throw new NotFoundError(`Delivery ${deliveryId} of event destination ${id} not found`);
    return this.sending.retry(destination.id, deliveryId);
  }
}
