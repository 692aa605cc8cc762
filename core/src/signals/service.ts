/**
 * @module signals/service — ingesting a signal: one read decides (duplicate, grouped, opened,
 * recorded), one transaction writes the delivery, the signal, its payload, the issue change and
 * every count, and a lost race starts over from the read.
 */
import { ConditionFailedError, type Db, type TransactItem } from "../db/client.js";
import { retryRaces } from "../db/retry.js";
import { NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import type { Issue } from "../issues/schemas.js";
import { ISSUE_ID, IssueService } from "../issues/service.js";
import { IssueStore, newIssueId, type StoredIssue } from "../issues/store.js";
import { newSignalId } from "./keys.js";
import { type EncodedPayload, encodePayload } from "./payload.js";
import { type RoutedSignal, routeSignal } from "./routing.js";
import type { ListSignalsQuery, Signal } from "./schemas.js";
import { type SeenDelivery, type SignalHead, SignalStore } from "./store.js";

/** A verified, classified signal ready to be stored. */
export interface SignalDraft extends RoutedSignal {
  deliveryId: string | null;
  headers: Record<string, string>;
  /** The payload as JSON text, exactly as it will be returned. */
  payloadText: string;
}

/** Signals an issue keeps for its detail (API.md 3.2.2: the latest 10). */
const RECENT_SIGNALS = 10;

export interface IngestResult {
  signal: SignalHead;
  issue: Issue | null;
  duplicate: boolean;
}

export class SignalService {
  private readonly signals: SignalStore;
  private readonly issues: IssueStore;

  private readonly issueService: IssueService;

  constructor(private readonly db: Db) {
    this.signals = new SignalStore(db);
    this.issues = new IssueStore(db);
    this.issueService = new IssueService(this.issues);
  }

  /**
   * Stores a signal and routes it (API.md 3.1.3). A delivery id seen before returns the first
   * delivery's signal and issue with `duplicate: true` and writes nothing; two deliveries with
   * one fingerprint never open two issues (the fingerprint pointer is written under condition).
   */
  async ingest(draft: SignalDraft): Promise<IngestResult> {
    const { id, receivedAt } = newSignalId();
    const payload = encodePayload(draft.payloadText);
    const chunksAhead = this.signals.payloadTooBigForTransaction(payload);
    if (chunksAhead) await this.signals.writePayloadChunks(id, payload);
    const result = await retryRaces(() => this.ingestOnce(draft, id, receivedAt, payload, chunksAhead));
    if (result.duplicate && chunksAhead) await this.signals.deletePayloadChunks(id, payload);
    return result;
  }

  private async ingestOnce(
    draft: SignalDraft,
    id: string,
    receivedAt: string,
    payload: EncodedPayload,
    chunksAhead: boolean,
  ): Promise<IngestResult> {
    const context = await this.signals.readIngestContext(draft.source, draft.deliveryId, draft.fingerprint);
    if (context.delivery) return this.duplicate(context.delivery);
    const current = context.pointer ? await this.issues.get(context.pointer) : undefined;
    const routing = routeSignal(draft, current ? current.issue : null, receivedAt);
    const now = new Date(receivedAt);
    const openedId = routing.action === "opened" ? newIssueId() : null;
    const signal: SignalHead = {
      id,
      source: draft.source,
      type: draft.type,
      deliveryId: draft.deliveryId,
      fingerprint: draft.fingerprint,
      severity: draft.severity,
      title: draft.title,
      action: routing.action,
      issueId: routing.action === "grouped" && current ? current.issue.id : openedId,
      payloadBytes: payload.bytes,
      headers: draft.headers,
      receivedAt,
    };
    let issue: StoredIssue | null = null;
    const issueWrites: TransactItem[] = [];
    if (routing.action === "grouped" && current) {
      const recentSignals = [signal, ...current.recentSignals].slice(0, RECENT_SIGNALS);
      const { stored, writes } = this.issues.prepareUpdate(current, routing.changes, now, { recentSignals });
      issue = stored;
      issueWrites.push(...writes, ...(await this.issueService.statusEffects(current, stored)));
    } else if (routing.action === "opened" && openedId) {
      const { stored, writes } = this.issues.prepareCreate(routing.issue, context.counter, now, openedId, {
        recentSignals: [signal],
      });
      issue = stored;
      issueWrites.push(...writes, this.signals.pointFingerprint(draft.fingerprint, openedId, context.pointer));
    }
    try {
      await this.db.transactWrite([...this.signals.prepareCreate(signal, payload, chunksAhead), ...issueWrites]);
    } catch (error) {
      const deliveryTaken =
        draft.deliveryId !== null &&
        error instanceof ConditionFailedError &&
        error.reasons[0] === "ConditionalCheckFailed";
      if (!deliveryTaken) throw error;
      const seen = await this.signals.seenDelivery(draft.source, draft.deliveryId as string);
      if (!seen) throw error;
      return this.duplicate(seen);
    }
    return { signal, issue: issue?.issue ?? null, duplicate: false };
  }

  private async duplicate(seen: SeenDelivery): Promise<IngestResult> {
    const [[signal], issue] = await Promise.all([
      this.signals.heads([seen.signalId]),
      seen.issueId ? this.issues.get(seen.issueId) : Promise.resolve(undefined),
    ]);
    if (!signal) throw new Error(`Delivery points at missing signal ${seen.signalId}`);
    return { signal, issue: issue?.issue ?? null, duplicate: true };
  }

  async getSignal(id: string): Promise<Signal> {
    const signal = /^sig_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? await this.signals.get(id) : undefined;
    if (!signal) throw new NotFoundError(`Signal ${id} not found`);
    return signal;
  }

  /** Signals, newest first; an `issueId` filter may name the issue as `KZN-<n>` (none found: empty). */
  async listSignals(query: ListSignalsQuery) {
    const { page, limit, since, ...filters } = query;
    if (filters.issueId && !ISSUE_ID.test(filters.issueId)) {
      const issue = await this.issueService.getIssue(filters.issueId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (!issue) return { signals: [], total: 0 };
      filters.issueId = issue.issue.id;
    }
    return this.signals.list({ filters, since, order: "desc", offset: pageOffset({ page, limit }), limit });
  }

  /**
   * The signals linked to one issue (`iss_…` or `KZN-<n>`), newest first; 404 when the issue does
   * not exist. An id with signals is not looked up: signals only ever link to existing issues.
   */
  async listIssueSignals(ref: string, page: { page: number; limit: number }) {
    const byId = ISSUE_ID.test(ref);
    const issueId = byId ? ref : (await this.issueService.getIssue(ref)).issue.id;
    const result = await this.signals.list({
      filters: { issueId },
      order: "desc",
      offset: pageOffset(page),
      limit: page.limit,
    });
    if (byId && result.total === 0) await this.issueService.getIssue(ref);
    return result;
  }
}
