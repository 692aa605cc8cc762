/**
 * @module signals/signal-ingest — ingesting a signal, in one line: dedupe (a conditional put reserving
 * the webhook delivery id, beside the read of the fingerprint's issue) → route (a pure decision) → the
 * issue side's writes (from the issue rules) → one transaction with the webhook delivery, the signal, its
 * payload and its listings. A lost race starts over from the read.
 */

import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import type { SourceKind } from "../catalog/schemas.js";
import type { SourceRouting } from "../catalog/source-store.js";
import type { Clock } from "../clock.js";
import { ConditionFailedError, type Db, type TransactItem, TransactionConflictError } from "../db/db.js";
import { InFlight, RecentlySeen } from "../db/in-flight.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { fieldError, type ValidationError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import type { AutomationRules } from "../issues/automation.js";
import { newIssueId, type StoredIssue } from "../issues/issue-item.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { SignalLinks } from "../issues/signal-links.js";
import { type IssueEffect, issueEffect } from "./issue-effect.js";
import { newSignalId } from "./keys.js";
import { type EncodedPayload, encodePayload } from "./payload.js";
import type { CodeHostReviews } from "./review-loop.js";
import { type RoutedSignal, type Routing, routeSignal } from "./routing.js";
import type { IngestResult } from "./schemas.js";
import type { SignalQueries } from "./signal-queries.js";
import type { SignalHead, SignalStore, StoredWebhookDelivery } from "./signal-store.js";
import type { WebhookDeliveryClaims } from "./webhook-delivery-claims.js";

/** How long an issue whose item was found held takes its grouped signals beside it (a storm lasts). */
const HELD_ISSUE_MS = 10_000;

/** A verified, classified signal ready to be stored. */
export interface SignalDraft extends RoutedSignal {
  deliveryId: string | null;
  headers: Record<string, string>;
  /** The payload as JSON text, exactly as it will be returned. */
  payloadText: string;
}

export type { IngestResult };

/** A new signal's payload and whether its chunks were written ahead of the transaction. */
interface PayloadPlan {
  encoded: EncodedPayload;
  chunksAhead: boolean;
}

/**
 * The issue side a signal acts on: opening issues and reading the one a delivery opened (the
 * issues' owner), linking grouped signals and folding a storm's (the links), the routing of a
 * project a signal names, and, for the webhook receivers, the review loop.
 */
export interface SignalIssues {
  store: Pick<IssueStore, "takeNumber" | "prepareCreate" | "get">;
  /** Linking grouped signals to their issue, and folding those left beside it. */
  links: SignalLinks;
  /**
   * The routing of a project a signal names itself (a manual signal's `projectId`), and the check
   * that holds its transaction to that project still existing.
   */
  projects: Pick<CatalogLookups, "routingOf" | "existenceChecks">;
  /**
   * Code-host deliveries about pull requests of Kaizen's issues (docs/api.md#review): given to the
   * webhook receivers' ingest; a manual signal is never one, so the manual signals' ingest has none.
   */
  reviews?: Pick<CodeHostReviews, "find" | "effect">;
}

export class SignalIngest {
  /** Webhook deliveries being stored here, by source and webhook delivery id: a redelivery meanwhile waits for the first. */
  private readonly webhookDeliveries = new InFlight();
  /** Issues being opened here, by fingerprint: other signals of it wait, then group into it. */
  private readonly openings = new InFlight();
  /** Issues whose item a grouping here found held lately: their next signals go beside them at once. */
  private readonly heldIssues = new RecentlySeen(HELD_ISSUE_MS);

  constructor(
    private readonly db: Db,
    private readonly signals: SignalStore,
    /** Signal reads: heads of the stored ones. */
    private readonly queries: SignalQueries,
    private readonly issues: SignalIssues,
    /**
     * The time signals are received at (and so the windows of watched fixes are judged by), and what
     * webhook delivery reservations last and redeliveries wait on (core/src/clock.ts).
     */
    private readonly clock?: Clock,
    /**
     * Webhook delivery ids held while their signal is stored (one request stores each): given to the
     * webhook receivers' ingest; a manual signal has no webhook delivery id, so the manual signals' ingest has none.
     */
    private readonly deliveryClaims?: Pick<WebhookDeliveryClaims, "take">,
  ) {}

  /**
   * Stores a signal and routes it (docs/api.md#what-a-signal-does). A webhook delivery id seen before returns the first
   * webhook delivery's signal and issue with `duplicate: true` and writes nothing; two webhook deliveries with
   * one fingerprint never open two issues (the fingerprint pointer is written under condition).
   */
  async ingest(draft: SignalDraft): Promise<IngestResult> {
    if (draft.manual) await this.signals.rememberSource(draft.source);
    if (draft.deliveryId === null) return this.ingestNew(draft);
    const key = `${draft.source}\u0000${draft.deliveryId}`;
    const first = this.webhookDeliveries.pending(key);
    if (first) {
      const stored = await (first as Promise<IngestResult>).catch(() => undefined);
      // The first webhook delivery failed: this one tries on its own (the database still dedupes).
      if (stored) return { ...stored, duplicate: true };
    }
    return this.webhookDeliveries.run(key, () => this.ingestNew(draft));
  }

  private async ingestNew(draft: SignalDraft): Promise<IngestResult> {
    const { id, receivedAt } = newSignalId((this.clock?.() ?? new Date()).getTime());
    const encoded = encodePayload(draft.payloadText);
    const payload = { encoded, chunksAhead: this.signals.payloadTooBigForTransaction(encoded) };
    const { deliveryId } = draft;
    let holding = false;
    const take = async (delivery: string) => {
      const seen = await this.claimed().take(draft.source, delivery, id);
      holding = seen === null;
      return seen;
    };
    // The webhook delivery id is taken once, beside the first read; later attempts hold it already.
    const attempt = (n: number) =>
      this.ingestOnce(draft, id, receivedAt, payload, n === 1 && deliveryId !== null ? () => take(deliveryId) : null);
    let result: IngestResult;
    try {
      if (payload.chunksAhead) await this.signals.writePayloadChunks(id, encoded);
      result = await retryRaces(attempt);
    } catch (error) {
      if (holding)
        await this.signals.releaseWebhookDelivery(draft.source, deliveryId as string, id).catch(() => undefined);
      if (payload.chunksAhead) await this.dropUnusedChunks(id, encoded);
      throw error;
    }
    if (payload.chunksAhead && result.duplicate) await this.signals.deletePayloadChunks(id, encoded);
    return result;
  }

  /**
   * After a failed ingest, deletes the chunks written ahead for signal `id` (the provider redelivers
   * under a new signal id), unless the signal was stored after all: a transaction that landed while
   * its answer was lost. Best effort: with the database gone they stay, unread.
   */
  private async dropUnusedChunks(id: string, encoded: EncodedPayload): Promise<void> {
    try {
      const [stored] = await this.queries.heads([id]);
      if (!stored) await this.signals.deletePayloadChunks(id, encoded);
    } catch {
      // Nothing points at them; they only take space.
    }
  }

  /** One attempt: `take` takes the webhook delivery id first (beside the fingerprint's read), on the first only. */
  private async ingestOnce(
    input: SignalDraft,
    id: string,
    receivedAt: string,
    payload: PayloadPlan,
    take: (() => Promise<StoredWebhookDelivery | null>) | null = null,
  ): Promise<IngestResult> {
    const source =
      !input.manual && input.sourceKey !== null ? { kind: input.source as SourceKind, name: input.sourceKey } : null;
    const [taken, read] = await Promise.all([
      take === null ? null : take(),
      this.signals.routeRead(input.fingerprint, source),
    ]);
    if (taken) return this.duplicate(taken);
    const { pointer } = read;
    // Step 0: the project its source routes to, or the one a manual signal names, which must exist.
    const project =
      input.manual && input.projectId ? await this.issues.projects.routingOf(input.projectId) : read.routing;
    if (input.manual && input.projectId && !project) throw unknownProject(input.projectId);
    const draft = input.manual ? input : { ...input, projectId: project?.projectId ?? null };
    const reviewed = (await this.issues.reviews?.find(draft, receivedAt)) ?? null;
    if (reviewed) {
      return this.writeRouted(draft, id, receivedAt, payload, reviewed.routing, project, pointer, reviewed.issues[0], {
        reviewed: reviewed.issues,
      });
    }
    const current = pointer ? await this.issues.links.findForSignal(pointer) : undefined;
    const automation = await this.automationFor(current, project);
    const known = current ? { ...current.issue, hold: current.automationHold } : null;
    const routing = routeSignal(draft, known, receivedAt, automation);
    if (routing.action === "opened") {
      // Another signal of this fingerprint is opening its issue here: wait, then group into it.
      const opening = this.openings.pending(draft.fingerprint);
      if (opening) {
        await opening.catch(() => undefined);
        return this.ingestOnce(input, id, receivedAt, payload);
      }
      return this.openings.run(draft.fingerprint, () =>
        this.writeRouted(draft, id, receivedAt, payload, routing, project, pointer, current),
      );
    }
    return this.writeRouted(draft, id, receivedAt, payload, routing, project, pointer, current);
  }

  /**
   * The automation of the project a signal's issue is in (docs/api.md#automation): the routing's
   * (read with the fingerprint's pointer) for a new issue or one in the same project; for a triage
   * issue in another project (a person moved it there), that project's, read now.
   */
  private async automationFor(
    current: StoredIssue | undefined,
    project: SourceRouting | null,
  ): Promise<AutomationRules | null> {
    if (!current) return project?.automation ?? null;
    const { projectId, status } = current.issue;
    if (projectId === null || status !== "triage") return null;
    if (projectId === project?.projectId) return project.automation;
    return (await this.issues.projects.routingOf(projectId))?.automation ?? null;
  }

  /** The signal and what its routing does to the issues, written in one transaction. */
  private async writeRouted(
    draft: SignalDraft,
    id: string,
    receivedAt: string,
    payload: PayloadPlan,
    routing: Routing,
    project: SourceRouting | null,
    pointer: string | null,
    current: StoredIssue | undefined,
    { reviewed }: { reviewed: StoredIssue[] } = { reviewed: [] },
  ): Promise<IngestResult> {
    const signal = signalHead(draft, id, receivedAt, payload.encoded, routing, current);
    const reviews = this.issues.reviews;
    const effect: IssueEffect =
      (routing.action === "closed_loop" || routing.action === "review") && reviews
        ? await reviews.effect(routing, reviewed, receivedAt)
        : await issueEffect(
            { issues: this.issues, signals: this.signals },
            { fingerprint: draft.fingerprint, routing, current, signal, pointer, project },
          );
    const own = this.signals.prepareCreate(signal, payload.encoded, payload.chunksAhead);
    // A project a manual signal names was read above; the check holds the write to it still existing
    // (no delete under way), as an issue write naming a project does. It goes right after the signal's own items.
    const named = draft.manual && draft.projectId ? draft.projectId : null;
    const checks = named ? this.issues.projects.existenceChecks({ projectId: named }) : [];
    let stored: IngestResult | undefined;
    try {
      stored = await this.write(draft, [...own, ...checks], effect, signal);
    } catch (error) {
      const projectGone =
        named !== null &&
        error instanceof ConditionFailedError &&
        error.reasons[own.length] === "ConditionalCheckFailed";
      if (projectGone) throw unknownProject(named);
      throw error;
    }
    if (!stored && effect.after) {
      // Written: what follows may fail without undoing it (the next review tries again).
      await effect.after().catch((error: unknown) => {
        defaultLogger.warn("after a review signal", { signalId: signal.id, error: loggedError(error) });
      });
    }
    return stored ?? { signal, issue: effect.issue, duplicate: false };
  }

  /**
   * Runs the signal's transaction, again while other transactions hold its items (it stays valid:
   * its items are its own, its issue change commutes or is conditioned on the version read), but
   * for an opening: one that finds the fingerprint held by another opening starts over from the
   * read, and groups into that issue once it is there (re-sent instead, a herd of openings would
   * keep the fingerprint held, each failing its condition in turn). A
   * grouping that finds the issue item held (a storm into one issue) is sent again without it: the
   * signal waits beside the issue and is folded into it before the webhook delivery is answered; one that
   * read signals waiting there already does so from the start. A
   * webhook delivery id that another request took over (this one outlived its reservation) makes this
   * one a duplicate once that one is stored.
   */
  private async write(
    draft: SignalDraft,
    own: TransactItem[],
    effect: IssueEffect,
    signal: SignalHead,
  ): Promise<IngestResult | undefined> {
    try {
      const { whenHeld } = effect;
      if (signal.action === "opened") {
        // Opening is decided on the fingerprint read: held by another opening, it is read again.
        await this.db.transactWrite([...own, ...effect.writes]);
        return undefined;
      }
      if (!whenHeld || !signal.issueId) {
        await retryConflicts(() => this.db.transactWrite([...own, ...effect.writes]));
        return undefined;
      }
      if (!effect.held && !this.heldIssues.has(signal.issueId)) {
        try {
          await this.db.transactWrite([...own, ...effect.writes]);
          return undefined;
        } catch (error) {
          if (!(error instanceof TransactionConflictError)) throw error;
          this.heldIssues.remember(signal.issueId);
        }
      }
      await retryConflicts(() => this.db.transactWrite([...own, ...whenHeld]));
      await this.issues.links.foldPendingSignals(signal.issueId, signal.id);
      return undefined;
    } catch (error) {
      const webhookDeliveryTaken =
        draft.deliveryId !== null &&
        error instanceof ConditionFailedError &&
        error.reasons[0] === "ConditionalCheckFailed";
      if (!webhookDeliveryTaken) throw error;
      // Another request took the webhook delivery over (this one outlived its reservation): wait for it.
      const seen = await this.claimed().take(draft.source, draft.deliveryId as string, signal.id);
      // Held again (that request died too): the next attempt writes it.
      if (seen === null) throw error;
      // Stored by this very signal: a transaction that landed while its answer was lost.
      if (seen.signalId === signal.id) return undefined;
      return this.duplicate(seen);
    }
  }

  /** The webhook delivery reservations, for a draft that names a webhook delivery (only the receivers' ingest is given them). */
  private claimed(): Pick<WebhookDeliveryClaims, "take"> {
    if (!this.deliveryClaims) throw new Error("This ingest was given no webhook delivery reservations to hold one by");
    return this.deliveryClaims;
  }

  private async duplicate(seen: StoredWebhookDelivery): Promise<IngestResult> {
    const [[signal], issue] = await Promise.all([
      this.queries.heads([seen.signalId]),
      seen.issueId ? this.issues.store.get(seen.issueId) : Promise.resolve(undefined),
    ]);
    if (!signal) throw new Error(`Delivery points at missing signal ${seen.signalId}`);
    return { signal, issue: issue?.issue ?? null, duplicate: true };
  }
}

/** The signal's own fields, with the action routing chose and the issue it links to. */
function signalHead(
  draft: SignalDraft,
  id: string,
  receivedAt: string,
  payload: EncodedPayload,
  routing: Routing,
  current: StoredIssue | undefined,
): SignalHead {
  return {
    id,
    source: draft.source,
    type: draft.type,
    deliveryId: draft.deliveryId,
    fingerprint: draft.fingerprint,
    severity: draft.severity,
    title: draft.title,
    action: routing.action,
    issueId:
      (routing.action === "grouped" ||
        routing.action === "closed_loop" ||
        routing.action === "review" ||
        routing.action === "regressed") &&
      current
        ? current.issue.id
        : routing.action === "opened"
          ? newIssueId()
          : null,
    projectId: draft.projectId ?? null,
    sourceKey: draft.sourceKey,
    payloadBytes: payload.bytes,
    headers: draft.headers,
    receivedAt,
  };
}

/** The 400 of a manual signal naming a project that does not exist, as `POST /api/issues` answers it (docs/api.md#status-codes). */
function unknownProject(projectId: string): ValidationError {
  return fieldError("projectId", `project ${projectId} does not exist`);
}
