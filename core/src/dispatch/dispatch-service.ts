/**
 * @module dispatch/dispatch-service — hand-offs of issues to agents (docs/api.md#dispatch) as the API
 * serves them: a claim (./claim-line.ts, after expiring leases that ran out), the queue's preview
 * (./queue-preview.ts), reads, what happens while a dispatch is open (./dispatch-progress.ts) and its
 * ends (./dispatch-endings.ts). Time comes from an injected clock.
 */
import { pageOffset } from "../http/pagination.js";
import type { QueueFilters } from "../issues/dispatch-queue.js";
import { parseIssueRef } from "../issues/keys.js";
import type { ClaimerInput, ClaimLine, ClaimStopped } from "./claim-line.js";
import { type DispatchEndings, type EndedDispatch, requireDispatch } from "./dispatch-endings.js";
import type { StoredDispatch, VersionedDispatch } from "./dispatch-item.js";
import type { DispatchProgress } from "./dispatch-progress.js";
import type { Dispatches } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
import type { QueuePreview } from "./queue-preview.js";
import type {
  ActivitiesQuery,
  Activity,
  ActivityInput,
  ApproveInput,
  ClaimResult,
  CompleteInput,
  HeartbeatInput,
  ListDispatchesQuery,
  MessageInput,
  QueueItem,
  QueueQuery,
  RejectInput,
  StopInput,
} from "./schemas.js";

export type { ClaimResult, ClaimStopped, QueueItem };

/** The claim and its preview: they read the queue in one order and projects' limits by one rule (docs/api.md#dispatch). */
export interface Claims {
  line: ClaimLine;
  preview: QueuePreview;
}

export class DispatchService {
  constructor(
    private readonly claims: Claims,
    private readonly endings: DispatchEndings,
    private readonly progress: DispatchProgress,
    private readonly dispatches: Dispatches,
    private readonly issues: DispatchedIssues,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Takes the highest-scoring eligible issue for `input.agent` (see {@link ClaimLine.claim}); null
   * when nothing is eligible. Leases that ran out are expired first, so their issues compete again.
   */
  async claim(input: ClaimerInput): Promise<ClaimResult | ClaimStopped | null> {
    await this.endings.expireEnded(this.now());
    return this.claims.line.claim(input);
  }

  /**
   * The queue in claim order, a page at a time, with each issue's score now and what holds it back
   * (see {@link QueuePreview.page}); reads only.
   */
  queue(query: QueueQuery & Pick<QueueFilters, "projectIds">): Promise<{ items: QueueItem[]; total: number }> {
    return this.claims.preview.page(query);
  }
  /** Dispatch `id`, or what a token's check read of it this request (`read`, the same dispatch): no second read. */
  async getDispatch(id: string, read?: StoredDispatch): Promise<StoredDispatch> {
    return read?.dispatch.id === id ? read : requireDispatch(this.dispatches.store, id);
  }

  /** A page of dispatches; `issueId` may name the issue by `KZN-<number>` (none when no issue has it). */
  /** A page of dispatches; `projectIds` (a key narrowed to projects) keeps only those projects' (docs/security.md#projects). */
  async listDispatches(query: ListDispatchesQuery, projectIds: readonly string[] | null = null) {
    const { page: _page, limit, ...filters } = query;
    if (filters.issueId && parseIssueRef(filters.issueId) !== undefined) {
      const issue = await this.issues.store.getByRef(filters.issueId);
      if (!issue) return { dispatches: [], total: 0 };
      filters.issueId = issue.issue.id;
    }
    return this.dispatches.queries.list(filters, { offset: pageOffset(query), limit }, projectIds);
  }
  /** Appends an activity of its agent (see {@link DispatchProgress.activity}). */
  activity(id: string, input: ActivityInput, read?: StoredDispatch): Promise<Activity> {
    return this.progress.activity(id, input, read);
  }

  /**
   * A page of a dispatch's activities after sequence `after`, oldest first, and how many follow
   * `after` in all (its count says, without a scan): one read of the dispatch, one query.
   * Readable whatever the dispatch's status.
   */
  async activities(
    id: string,
    query: ActivitiesQuery,
    read?: StoredDispatch,
  ): Promise<{ activities: Activity[]; total: number }> {
    const { dispatch, activityCount } = await this.getDispatch(id, read);
    const from = query.after + pageOffset(query);
    const total = Math.max(0, activityCount - query.after);
    if (from >= activityCount) return { activities: [], total };
    return { activities: await this.dispatches.queries.activitiesAfter(dispatch.id, from, query.limit), total };
  }

  /** Extends an active lease (see {@link DispatchProgress.heartbeat}). */
  heartbeat(id: string, input: HeartbeatInput, read?: StoredDispatch): Promise<VersionedDispatch> {
    return this.progress.heartbeat(id, input, read);
  }

  /** A person's message to the agent (see {@link DispatchProgress.message}). */
  message(id: string, input: MessageInput): Promise<Activity> {
    return this.progress.message(id, input);
  }

  /** A person approves the plan a dispatch waits on (see {@link DispatchProgress.decidePlan}). */
  approve(id: string, input: ApproveInput): Promise<VersionedDispatch & { activity: Activity }> {
    return this.progress.decidePlan(id, "approved", input.comment);
  }

  /** A person rejects the plan a dispatch waits on, with feedback (see {@link DispatchProgress.decidePlan}). */
  reject(id: string, input: RejectInput): Promise<VersionedDispatch & { activity: Activity }> {
    return this.progress.decidePlan(id, "rejected", input.feedback);
  }

  /** Ends the dispatch with the agent's outcome (see {@link DispatchEndings.complete}). */
  complete(id: string, input: CompleteInput, read?: StoredDispatch): Promise<EndedDispatch> {
    return this.endings.complete(id, input, read);
  }

  /** A person stops an active dispatch (see {@link DispatchEndings.stop}). */
  stop(id: string, input: StopInput): Promise<EndedDispatch> {
    return this.endings.stop(id, input);
  }

  /** Gives the issue back untouched (see {@link DispatchEndings.release}). */
  release(id: string, read?: StoredDispatch): Promise<EndedDispatch> {
    return this.endings.release(id, read);
  }

  /** Expires up to a batch of dispatches whose lease ended before `now` (see {@link DispatchEndings.expireEnded}). */
  expireEnded(now: Date): Promise<number> {
    return this.endings.expireEnded(now);
  }
}
