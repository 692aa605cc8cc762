/**
 * @module catalog/catalog-service — rules of projects, goals and labels: defaults, partial updates under
 * optimistic concurrency, and deletes refused while something still uses the record. What the rest
 * of Kaizen reads of the catalog (and the checks issue writes add) is ./catalog-lookups.ts.
 */
import { ConditionFailedError, type Db, type TransactItem } from "../db/db.js";
import type { EntryFilter } from "../db/listing-index.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import { type UsageStats, usageDay } from "../stats/usage-stats.js";
import type { CatalogLookups } from "./catalog-lookups.js";
import { FENCE_MS } from "./fence.js";
import { GOAL_ID, LABEL_ID, listingName, newCatalogId, PROJECT_ID } from "./keys.js";
import {
  FULL_AUTONOMY,
  GOAL_KIND,
  LabelStore,
  NO_AUTOMATION,
  NO_LIMITS,
  NO_SOURCES,
  PROJECT_KIND,
} from "./label-store.js";
import { lostRace, patchRecord } from "./patch.js";
import { RecordStore, type Stored } from "./record-store.js";
import type {
  CreateGoalBody,
  CreateLabelBody,
  CreateProjectBody,
  Goal,
  Label,
  ListGoalsQuery,
  ListLabelsQuery,
  ListProjectsQuery,
  PatchGoalBody,
  PatchProjectBody,
  Project,
  ProjectDetail,
} from "./schemas.js";
import { DEFAULT_VERIFY_HOURS } from "./schemas.js";
import { MAX_SOURCE_CHANGES, type SourceRef, SourceStore, sourceChanges, sourceRefs } from "./source-store.js";

/** What the catalog's rules read of the issues: who uses a label or project. */
export interface CatalogIssueCounts {
  /** How many live issues carry the label. */
  countWithLabel(name: string): Promise<number>;
  /** Live issues of a project per status, every status present (zeros included). */
  statusCountsOfProject(projectId: string): Promise<Record<string, number>>;
}

/** What the catalog's rules ask the issues' owner to write: the goal bonus of a project's issues. */
export interface CatalogGoalBonus {
  /** Gives every live issue of the project the goal bonus `goalActive`; how many changed. */
  setGoalBonus(projectId: string, goalActive: boolean): Promise<number>;
}

/**
 * @example const catalog = catalogService(deps); await catalog.createLabel({ name: "bug", color: "#d73a4a" });
 */
export class CatalogService {
  private readonly projects: RecordStore<Project>;
  private readonly goals: RecordStore<Goal>;
  private readonly labels: LabelStore;
  private readonly sources: SourceStore;

  constructor(
    db: Db,
    /** The catalog's reads, shared with what only reads it. */
    private readonly lookups: CatalogLookups,
    /** What the catalog's rules read of the issues (the composition root hands in the issue queries). */
    private readonly issues: CatalogIssueCounts,
    /** The issues' owner, for the goal bonus (the composition root hands in the issue store). */
    private readonly goalBonus: CatalogGoalBonus,
    /** What a project's dispatches reported they cost, per day (its detail shows today's). */
    private readonly usage: Pick<UsageStats, "projectDay">,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.projects = new RecordStore(db, PROJECT_KIND);
    this.goals = new RecordStore(db, GOAL_KIND);
    this.labels = new LabelStore(db);
    this.sources = new SourceStore(db);
  }

  async createProject(input: CreateProjectBody): Promise<Stored<Project>> {
    const { id, createdAt } = newCatalogId("prj", this.now().getTime());
    const project: Project = {
      id,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? "backlog",
      health: input.health ?? "on_track",
      goalId: input.goalId ?? null,
      limits: input.limits ?? NO_LIMITS,
      sources: input.sources ?? NO_SOURCES,
      automation: input.automation ?? NO_AUTOMATION,
      autonomy: input.autonomy ?? FULL_AUTONOMY,
      verifyHours: input.verifyHours ?? DEFAULT_VERIFY_HOURS,
      createdAt,
      updatedAt: createdAt,
    };
    const claimed = sourceRefs(project.sources);
    checkSourceChanges(claimed.length);
    // A new project has no goals yet (a goal names an existing project): no goal bonus.
    const claims = this.sources.prepareClaims(id, claimed, { automation: project.automation, goalActive: false });
    return this.claimingSources(
      id,
      () => claimed,
      () => retryRaces(() => this.projects.create(project, claims), { isRace: lostRace }),
    );
  }

  async getProject(id: string): Promise<Stored<Project>> {
    return found(PROJECT_ID.test(id) ? await this.projects.get(id) : undefined, `Project ${id}`);
  }

  /** The project with its live issues per status (every status, zeros included) and today's (UTC) usage. */
  async projectDetail(id: string): Promise<{ project: ProjectDetail; version: number }> {
    if (!PROJECT_ID.test(id)) throw new NotFoundError(`Project ${id} not found`);
    const today = usageDay(this.now());
    const [stored, counts, usage] = await Promise.all([
      this.getProject(id),
      this.issues.statusCountsOfProject(id),
      this.usage.projectDay(id, today),
    ]);
    const issueCounts = counts;
    return {
      project: {
        ...stored.record,
        issueCounts: issueCounts as ProjectDetail["issueCounts"],
        usage: { date: today, ...usage },
      },
      version: stored.version,
    };
  }

  /** A page of projects; `projectIds` (a key narrowed to projects) keeps only those (docs/security.md#projects). */
  async listProjects(query: ListProjectsQuery, projectIds: readonly string[] | null = null) {
    const listing = query.status ? listingName("status", query.status) : "all";
    const filters: EntryFilter[] = projectIds ? [{ attribute: "id", values: [...projectIds], match: "in" }] : [];
    return this.projects.list(listing, filters, { offset: pageOffset(query), limit: query.limit });
  }

  /**
   * A partial update; a change of `sources` claims those gained and gives up those lost in the
   * project's transaction (409 naming the owner of one another project holds), and a change of
   * `automation` reaches the routing its claims carry.
   */
  async updateProject(id: string, changes: PatchProjectBody, expected?: ExpectedVersions): Promise<Stored<Project>> {
    let claimed: SourceRef[] = [];
    let later: (() => Promise<void>) | null = null;
    const claimWrites = async (current: Stored<Project>, updated: Project): Promise<TransactItem[]> => {
      const { added, removed, kept } = sourceChanges(current.record.sources, updated.sources);
      checkSourceChanges(added.length + removed.length);
      claimed = added;
      later = null;
      const automationChanged = !sameAutomation(current.record.automation, updated.automation);
      const refreshed = automationChanged ? kept : kept.filter((source) => respelled(source, current.record));
      if (added.length + refreshed.length === 0) return this.sources.prepareReleases(id, removed);
      const routing = { automation: updated.automation, goalActive: await this.lookups.goalActive(id) };
      const inline = added.length + removed.length + refreshed.length <= MAX_SOURCE_CHANGES;
      // Too many to ride along: the kept claims take the new routing right after the change.
      if (!inline) later = () => this.sources.refresh(id, refreshed, routing);
      return [
        ...this.sources.prepareClaims(id, inline ? [...added, ...refreshed] : added, routing),
        ...this.sources.prepareReleases(id, removed),
      ];
    };
    const updated = await this.claimingSources(
      id,
      () => claimed,
      () => patchRecord(this.projects, () => this.getProject(id), changes, expected, this.now, claimWrites),
    );
    if (later) await (later as () => Promise<void>)();
    return updated;
  }

  /**
   * Runs a project's write that claims `claimed`; a claim refused because another project holds
   * the source is a 409 naming that project.
   */
  private async claimingSources<T>(
    projectId: string,
    /** The sources the write claims (known once it has been prepared). */
    claimed: () => SourceRef[],
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const sources = claimed();
      if (!(error instanceof ConditionFailedError) || sources.length === 0) throw error;
      const owners = await this.sources.owners(sources);
      for (const source of sources) {
        const owner = owners.get(source);
        if (owner && owner !== projectId) {
          const project = await this.projects.get(owner);
          const name = project ? `"${project.record.name}" (${owner})` : owner;
          throw new ConflictError(`Source ${source.kind} "${source.name}" already belongs to project ${name}`);
        }
      }
      throw error;
    }
  }

  /**
   * 409 while goals point at the project or issues are in it (no cascade: clear them first).
   * The issues are counted behind a fence that issue writes check (`projectExistsCheck`), so an
   * issue added meanwhile either is counted or fails; the goals are counted on the project itself.
   */
  async deleteProject(id: string, expected?: ExpectedVersions): Promise<void> {
    await retryRaces(
      async () => {
        const current = await this.getProject(id);
        checkVersion(expected, current.version);
        if (current.refCount > 0) throw new ConflictError(`Project ${id} has ${count(current.refCount, "goal")}`);
        await this.projects.fence(current, this.fenceUntil());
        const counts = await this.issues.statusCountsOfProject(id);
        const issues = Object.values(counts).reduce((sum, n) => sum + n, 0);
        if (issues > 0) {
          await this.projects.unfence(id);
          throw new ConflictError(`Project ${id} has ${count(issues, "issue")}`);
        }
        await this.projects.delete(current, {
          fencedAt: this.now().toISOString(),
          extra: this.sources.prepareReleases(id, sourceRefs(current.record.sources)),
        });
      },
      { isRace: lostRace },
    );
  }

  async createGoal(input: CreateGoalBody): Promise<Stored<Goal>> {
    const { id, createdAt } = newCatalogId("gol", this.now().getTime());
    const goal: Goal = {
      id,
      title: input.title,
      description: input.description ?? null,
      metric: input.metric ?? null,
      targetValue: input.targetValue ?? null,
      currentValue: input.currentValue ?? null,
      unit: input.unit ?? null,
      status: input.status ?? "active",
      projectId: input.projectId ?? null,
      createdAt,
      updatedAt: createdAt,
    };
    const stored = await retryRaces(() => this.goals.create(goal), { isRace: lostRace });
    await this.followGoal(null, stored.record);
    return stored;
  }

  async getGoal(id: string): Promise<Stored<Goal>> {
    return found(GOAL_ID.test(id) ? await this.goals.get(id) : undefined, `Goal ${id}`);
  }

  /** Newest first; `projectId` with `status` walks the project's goals checking their status. */
  async listGoals(query: ListGoalsQuery) {
    const page = { offset: pageOffset(query), limit: query.limit };
    if (query.projectId) {
      const filters: EntryFilter[] = query.status
        ? [{ attribute: "status", value: query.status, match: "equals" }]
        : [];
      return this.goals.list(listingName("project", query.projectId), filters, page);
    }
    return this.goals.list(query.status ? listingName("status", query.status) : "all", [], page);
  }

  async updateGoal(id: string, changes: PatchGoalBody, expected?: ExpectedVersions): Promise<Stored<Goal>> {
    const before = await this.getGoal(id);
    const after = await patchRecord(this.goals, () => this.getGoal(id), changes, expected, this.now);
    await this.followGoal(before.record, after.record);
    return after;
  }

  /**
   * After a goal changed: the issues of the projects it left or joined, or whose active goal it
   * started or stopped being, take their goal bonus again (a rare, per-project rewrite).
   */
  private async followGoal(before: Goal | null, after: Goal | null): Promise<void> {
    const projects = new Set<string>();
    for (const goal of [before, after]) if (goal?.projectId) projects.add(goal.projectId);
    const moved =
      before?.projectId !== after?.projectId || (before?.status === "active") !== (after?.status === "active");
    if (!moved) return;
    for (const projectId of projects) {
      const goalActive = await this.lookups.goalActive(projectId);
      await this.goalBonus.setGoalBonus(projectId, goalActive);
      // Signals from the project's sources open issues with the bonus, or without it, from now on.
      const project = await this.projects.get(projectId);
      if (project) {
        const { sources, automation } = project.record;
        await this.sources.refresh(projectId, sourceRefs(sources), { automation, goalActive });
      }
    }
  }

  /** 409 while projects point at the goal (no cascade). */
  async deleteGoal(id: string, expected?: ExpectedVersions): Promise<void> {
    const goal = (await this.getGoal(id)).record;
    await retryRaces(
      async () => {
        const current = await this.getGoal(id);
        checkVersion(expected, current.version);
        if (current.refCount > 0)
          throw new ConflictError(`Goal ${id} is used by ${count(current.refCount, "project")}`);
        await this.goals.delete(current);
      },
      { isRace: lostRace },
    );
    await this.followGoal(goal, null);
  }

  /** 409 `Label "<name>" already exists` when a label holds the name in any case. */
  async createLabel(input: CreateLabelBody): Promise<Stored<Label>> {
    return this.labels.createLabel(input, this.now());
  }

  async listLabels(query: ListLabelsQuery) {
    return this.labels.list("all", [], { offset: pageOffset(query), limit: query.limit });
  }

  /**
   * 409 while issues carry the label. Decision: no cascade — deleting a label never strips it
   * from issues; remove it from them first. Counted behind a fence, as for projects.
   */
  async deleteLabel(id: string, expected?: ExpectedVersions): Promise<void> {
    // Any failed condition is a lost race here: the label changed, or its fence lapsed.
    await retryRaces(async () => {
      const current = found(LABEL_ID.test(id) ? await this.labels.get(id) : undefined, `Label ${id}`);
      checkVersion(expected, current.version);
      await this.labels.fenceName(current, this.fenceUntil());
      const issues = await this.issues.countWithLabel(current.record.name);
      if (issues > 0) {
        await this.labels.unfenceName(current);
        throw new ConflictError(`Label "${current.record.name}" is used by ${count(issues, "issue")}`);
      }
      await this.labels.deleteLabel(current, this.now().toISOString());
    });
  }

  private fenceUntil(): string {
    return new Date(this.now().getTime() + FENCE_MS).toISOString();
  }
}

/** 400 for a change of more sources than one transaction can hold with its project. */
function checkSourceChanges(changed: number): void {
  if (changed <= MAX_SOURCE_CHANGES) return;
  const message = `must add or remove at most ${MAX_SOURCE_CHANGES} sources in one request (this one changes ${changed}); send the change in parts`;
  throw fieldError("sources", message);
}

function sameAutomation(a: Project["automation"], b: Project["automation"]): boolean {
  return a.acceptAtPriority === b.acceptAtPriority && a.acceptAtSignals === b.acceptAtSignals;
}

/** Whether the project already listed `source`, spelled otherwise (`Acme/Shop` for `acme/shop`). */
function respelled(source: SourceRef, project: Project): boolean {
  return !project.sources[source.kind].includes(source.name);
}

function found<T>(stored: T | undefined, what: string): T {
  if (stored === undefined) throw new NotFoundError(`${what} not found`);
  return stored;
}

/** `1 issue`, `3 issues`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
