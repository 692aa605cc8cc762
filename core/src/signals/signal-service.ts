/**
 * @module signals/signal-service — signals as the API serves them (docs/api.md#signals): ingesting
 * one (./signal-ingest.ts does the work), one by id, pages of them, and an issue's.
 */
import { NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import type { IssueReads } from "../issues/issue-reads.js";
import { ISSUE_ID } from "../issues/keys.js";
import type { ListSignalsQuery, Signal } from "./schemas.js";
import type { IngestResult, SignalDraft, SignalIngest } from "./signal-ingest.js";
import type { SignalQueries } from "./signal-queries.js";

export type { IngestResult, SignalDraft };

export class SignalService {
  constructor(
    private readonly ingestion: SignalIngest,
    /** Signal reads: one signal, pages. */
    private readonly queries: SignalQueries,
    /** The issues signals link to, read by `iss_…` id or `KZN-<n>`. */
    private readonly issues: Pick<IssueReads, "require">,
  ) {}

  /** Stores a signal and routes it: see {@link SignalIngest.ingest}. */
  ingest(draft: SignalDraft): Promise<IngestResult> {
    return this.ingestion.ingest(draft);
  }

  async getSignal(id: string): Promise<Signal> {
    const signal = /^sig_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? await this.queries.get(id) : undefined;
    if (!signal) throw new NotFoundError(`Signal ${id} not found`);
    return signal;
  }

  /** Signals, newest first; an `issueId` filter may name the issue as `KZN-<n>` (none found: empty). */
  async listSignals(query: ListSignalsQuery, projectIds: readonly string[] | null = null) {
    const { page, limit, since, ...filters } = query;
    if (filters.issueId && !ISSUE_ID.test(filters.issueId)) {
      const issue = await this.issues.require(filters.issueId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (!issue) return { signals: [], total: 0 };
      filters.issueId = issue.issue.id;
    }
    return this.queries.list({ filters, projectIds, since, order: "desc", offset: pageOffset({ page, limit }), limit });
  }

  /**
   * The signals linked to one issue (`iss_…` or `KZN-<n>`), and to the issues merged into it,
   * newest first; 404 when the issue does not exist. The issue is read beside its listing's page
   * (it says which issues were merged into it); a merged issue's listing is read again with theirs.
   */
  async listIssueSignals(ref: string, page: { page: number; limit: number }) {
    const request = { offset: pageOffset(page), limit: page.limit };
    const byId = ISSUE_ID.test(ref);
    const [found, result] = await Promise.all([
      this.issues.require(ref),
      byId ? this.queries.list({ filters: { issueId: ref }, order: "desc", ...request }) : undefined,
    ]);
    if (found.mergedFrom.length > 0) return this.queries.listOfIssues([found.issue.id, ...found.mergedFrom], request);
    return result ?? this.queries.list({ filters: { issueId: found.issue.id }, order: "desc", ...request });
  }
}
