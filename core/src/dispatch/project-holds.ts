/**
 * @module dispatch/project-holds — whether a project's limits stop claims of its issues now
 * (docs/api.md#dispatch): `limits.maxInReview` of its issues waiting in review
 * (docs/api.md#review-capacity), or `limits.dailyCostBudgetUsd` reported today. The claim line asks
 * it of the project of the issue it tries, the queue's preview of the projects on its page: one
 * rule, so the preview marks exactly the issues claims pass over. Reads only.
 */
import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import type { Project } from "../catalog/schemas.js";
import { fieldError } from "../errors.js";
import type { ReviewLoad } from "../issues/review-load.js";
import { DAILY_COST_BUDGET_STOP, REVIEW_CAPACITY_STOP } from "../routes.js";
import { type UsageStats, usageDay } from "../stats/usage-stats.js";

/** Why claims of a project's issues stop: the value of a claim's `Kaizen-Claim-Stopped`, and of the preview's `heldBy`. */
export type ProjectStop = typeof DAILY_COST_BUDGET_STOP | typeof REVIEW_CAPACITY_STOP;

/** What a project's stop is read from. */
type LimitedProject = Pick<Project, "id" | "limits">;

export class ProjectHolds {
  constructor(
    private readonly catalog: Pick<CatalogLookups, "findProjects">,
    /** What projects' dispatches reported they cost today, held against their daily budgets. */
    private readonly usage: Pick<UsageStats, "projectDay">,
    private readonly reviewLoad: Pick<ReviewLoad, "inReviewOf">,
  ) {}

  /** The projects of `ids` that exist, by id: one read (none for no ids). */
  async projects(ids: readonly string[]): Promise<Map<string, Project>> {
    if (ids.length === 0) return new Map();
    return new Map((await this.catalog.findProjects(ids)).map((project) => [project.id, project]));
  }

  /**
   * The project a claim or the preview names in `projectId`: a 400 naming the field when there is
   * none, as `POST /api/issues` answers (docs/api.md#status-codes).
   */
  async named(projectId: string): Promise<Project> {
    const found = (await this.projects([projectId])).get(projectId);
    if (found) return found;
    throw fieldError("projectId", `project ${projectId} does not exist`);
  }

  /** Why claims of `project`'s issues stop at `now`, or null: {@link stopsOf} for one project. */
  async stopOf(project: LimitedProject, now: Date): Promise<ProjectStop | null> {
    return (await this.stopsOf([project], now)).get(project.id) ?? null;
  }

  /**
   * Why claims of each of `projects` stop at `now` (those that do not stop are left out): one read of
   * the review counts of those that set `maxInReview` and one query per project that sets
   * `dailyCostBudgetUsd`, all side by side.
   */
  async stopsOf(projects: readonly LimitedProject[], now: Date): Promise<Map<string, ProjectStop>> {
    const reviewed = projects.filter(({ limits }) => limits.maxInReview !== null).map(({ id }) => id);
    const budgeted = projects.filter(({ limits }) => limits.dailyCostBudgetUsd !== null).map(({ id }) => id);
    const day = usageDay(now);
    const [inReview, costs] = await Promise.all([
      this.reviewLoad.inReviewOf(reviewed),
      Promise.all(budgeted.map(async (id) => [id, (await this.usage.projectDay(id, day)).costUsd] as const)),
    ]);
    const costToday = new Map(costs);
    const stops = new Map<string, ProjectStop>();
    for (const project of projects) {
      const stop = stopFrom(project, inReview.get(project.id) ?? 0, costToday.get(project.id) ?? 0);
      if (stop) stops.set(project.id, stop);
    }
    return stops;
  }
}

/** The stop of a project whose issues `inReview` wait in review and whose agents reported `costToday`: reviews first. */
function stopFrom({ limits }: LimitedProject, inReview: number, costToday: number): ProjectStop | null {
  if (limits.maxInReview !== null && inReview >= limits.maxInReview) return REVIEW_CAPACITY_STOP;
  if (limits.dailyCostBudgetUsd !== null && costToday >= limits.dailyCostBudgetUsd) return DAILY_COST_BUDGET_STOP;
  return null;
}
