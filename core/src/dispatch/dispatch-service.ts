/**
 * @module dispatch/dispatch-service — hand-offs of issues to agents (docs/api.md#dispatch) as the API
 * serves them: a claim (./claim-line.ts, after expiring leases that ran out), the queue's preview,
 * reads, what happens while a dispatch is open (./dispatch-progress.ts) and its ends
 * (./dispatch-endings.ts). Time comes from an injected clock.
 */
import { pageOffset } from "../http/pagination.js";
import { type QueueFilters, queuePlacement } from "../issues/dispatch-queue.js";
import { parseIssueRef } from "../issues/keys.js";
import type { Issue } from "../issues/schemas.js";
import { scoreOf } from "../issues/scoring.js";
import type { ClaimerInput, ClaimLine, ClaimStopped } from "./claim-line.js";
import { type DispatchEndings, type EndedDispatch, EXPIRIES_PER_CLAIM, requireDispatch } from "./dispatch-endings.js";
import type { StoredDispatch, VersionedDispatch } from "./dispatch-item.js";
import type { DispatchProgress } from "./dispatch-progress.js";
import type { Dispatches } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
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

export class DispatchService {
  constructor(
    private readonly claims: ClaimLine,
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
    return this.claims.claim(input);
  }

  /** The queue in claim order, a page at a time, with each issue's score now; reads only. */
  async queue(query: QueueQuery): Promise<{ items: QueueItem[]; total: number }> {
    const now = this.now();
    const request = { offset: pageOffset(query), limit: query.limit };
    const ended = await this.endedLeaseIssues(now, query);
    // Issues whose lease ran out rejoin at their place when the next claim expires them: merged
    // here so the preview is the order claims will take. Without any, a page is three reads.
    const { entries, total } = await this.issues.queue.entries(
      query,
      ended.length === 0 ? request : { offset: 0, limit: request.offset + request.limit },
    );
    const merged = [...entries, ...ended]
      .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
      .slice(ended.length === 0 ? 0 : request.offset, ended.length === 0 ? undefined : request.offset + request.limit);
    const stored = await this.issues.store.getMany(merged.map(({ issueId }) => issueId));
    const byId = new Map(stored.map((issue) => [issue.issue.id, issue]));
    const items = merged.flatMap(({ issueId, goal }) => {
      const found = byId.get(issueId);
      return found ? [{ issue: found.issue, ...scoreOf(found.issue, goal, now) }] : [];
    });
    return { items, total: total + ended.length };
  }
  async getDispatch(id: string): Promise<StoredDispatch> {
    return requireDispatch(this.dispatches.store, id);
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
  async activities(id: string, query: ActivitiesQuery): Promise<{ activities: Activity[]; total: number }> {
    const { dispatch, activityCount } = await requireDispatch(this.dispatches.store, id);
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
  /** Queue positions of the issues whose lease ran out (their dispatches are not expired yet). */
  private async endedLeaseIssues(now: Date, filters: QueueFilters) {
    const ids = await this.dispatches.queries.leasesEndedBy(now.toISOString(), EXPIRIES_PER_CLAIM);
    if (ids.length === 0) return [];
    const dispatches = await this.dispatches.queries.getMany(ids);
    const issues = await this.issues.store.getMany(dispatches.map(({ dispatch }) => dispatch.issueId));
    return issues
      .filter((stored) => stored.issue.status === "in_progress" && stored.issue.blockedBy.length === 0)
      .filter((stored) => matches(stored.issue, filters))
      .map((stored) => {
        const requeued = { ...stored.issue, status: "todo" as const };
        return {
          sk: queuePlacement(requeued, stored.goalActive).sk,
          issueId: stored.issue.id,
          goal: stored.goalActive,
        };
      });
  }
}

function matches(issue: Issue, filters: QueueFilters): boolean {
  return (
    (!filters.projectId || issue.projectId === filters.projectId) &&
    (!filters.projectIds || (issue.projectId !== null && filters.projectIds.includes(issue.projectId))) &&
    (!filters.types || filters.types.length === 0 || filters.types.includes(issue.type))
  );
}
