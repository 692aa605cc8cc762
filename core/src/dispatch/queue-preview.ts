/**
 * @module dispatch/queue-preview — `GET /api/dispatch/queue` (docs/api.md#dispatch): the queue a page
 * at a time, in claim order, with each issue's score now and, for the issues of a project whose
 * claims stop now, the stop (`heldBy`), read by the rule the claim line passes them over by
 * (./project-holds.ts). A page reads the issues and projects it shows, never the rest of the queue.
 * Reads only; time comes from an injected clock.
 */
import type { Project } from "../catalog/schemas.js";
import { pageOffset } from "../http/pagination.js";
import { type QueueFilters, queuePlacement } from "../issues/dispatch-queue.js";
import type { Issue } from "../issues/schemas.js";
import { scoreOf } from "../issues/scoring.js";
import { EXPIRIES_PER_CLAIM } from "./dispatch-endings.js";
import type { Dispatches } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
import type { ProjectHolds } from "./project-holds.js";
import type { QueueItem, QueueQuery } from "./schemas.js";

/** A place in the queue the page may show: its sort key, its issue, the issue's goal bonus and project. */
interface Placed {
  sk: string;
  issueId: string;
  goal: boolean;
  projectId: string | null;
}

export class QueuePreview {
  constructor(
    private readonly dispatches: Pick<Dispatches, "queries">,
    private readonly issues: Pick<DispatchedIssues, "store" | "queue">,
    private readonly holds: Pick<ProjectHolds, "projects" | "named" | "stopsOf">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * A page of the queue in claim order, and how many are queued (held or not). A `projectId` that
   * names no project is a 400, as on the claim. Without leases run out or projects, a page is the
   * queue's three reads beside the query for leases; the projects it shows add one read, and their
   * limits what {@link ProjectHolds.stopsOf} reads: as many for a page of a project of ten
   * thousand issues as of ten.
   */
  async page(query: QueueQuery & Pick<QueueFilters, "projectIds">): Promise<{ items: QueueItem[]; total: number }> {
    const now = this.now();
    const request = { offset: pageOffset(query), limit: query.limit };
    // The project a filter names is read beside the leases: it must exist, and its limits mark its issues.
    const [ended, named] = await Promise.all([
      this.endedLeaseIssues(now, query),
      query.projectId ? this.holds.named(query.projectId) : null,
    ]);
    // Issues whose lease ran out rejoin at their place when the next claim expires them: merged
    // here so the preview is the order claims will take. Without any, a page is three reads.
    const { entries, total } = await this.issues.queue.entries(
      query,
      ended.length === 0 ? request : { offset: 0, limit: request.offset + request.limit },
    );
    const merged: Placed[] = [...entries, ...ended]
      .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
      .slice(ended.length === 0 ? 0 : request.offset, ended.length === 0 ? undefined : request.offset + request.limit);
    // The page's projects, as their entries name them, are read beside its issues.
    const projects = new Map(named ? [[named.id, named]] : []);
    const [stored] = await Promise.all([
      this.issues.store.getMany(merged.map(({ issueId }) => issueId)),
      this.readProjects(projects, merged),
    ]);
    // An issue moved to another project since its entry was read is held by the project it is in now.
    await this.readProjects(
      projects,
      stored.map(({ issue }) => issue),
    );
    const stops = await this.holds.stopsOf([...projects.values()], now);
    const byId = new Map(stored.map((issue) => [issue.issue.id, issue]));
    const items = merged.flatMap(({ issueId, goal }) => {
      const found = byId.get(issueId);
      if (!found) return [];
      const heldBy = found.issue.projectId === null ? null : (stops.get(found.issue.projectId) ?? null);
      return [{ issue: found.issue, ...scoreOf(found.issue, goal, now), heldBy }];
    });
    return { items, total: total + ended.length };
  }

  /** Adds to `projects` those of `shown` not read yet (one read, none when all are). */
  private async readProjects(
    projects: Map<string, Project>,
    shown: readonly { projectId: string | null }[],
  ): Promise<void> {
    const unread = [...new Set(shown.flatMap(({ projectId }) => (projectId ? [projectId] : [])))].filter(
      (projectId) => !projects.has(projectId),
    );
    for (const [id, project] of await this.holds.projects(unread)) projects.set(id, project);
  }

  /** Queue positions of the issues whose lease ran out (their dispatches are not expired yet). */
  private async endedLeaseIssues(now: Date, filters: QueueFilters): Promise<Placed[]> {
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
          projectId: stored.issue.projectId,
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
