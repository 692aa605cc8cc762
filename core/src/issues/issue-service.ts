/**
 * @module issues/issue-service — the API's issue rules: references checked on create and update,
 * lookups by id or `KZN-<n>`, list filters to listings. A new issue's defaults: ./issue-item.ts.
 */
import { ConditionFailedError, type TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, fieldError, NotFoundError, PreconditionFailedError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import { type NewIssue, newIssue, RECENT_SIGNALS, type StoredIssue, summaryItem } from "./issue-item.js";
import type { IssueMoves } from "./issue-moves.js";
import type { IssueQueries } from "./issue-queries.js";
import type { IssueStore } from "./issue-store.js";
import { ISSUE_ID } from "./keys.js";
import { relationsFromEdges } from "./relation-store.js";
import type { CreateIssueBody, ListIssuesQuery, UpdateIssueBody } from "./schemas.js";

/** What the issue rules need to know of the catalog (labels and projects). */
export interface IssueReferences {
  /** Canonical names of the labels that exist, and the names that do not. */
  resolveLabels(names: string[]): Promise<{ found: string[]; missing: string[] }>;
  projectExists(id: string): Promise<boolean>;
  /** Items that make an issue write hold only while its project and labels still exist. */
  existenceChecks(references: { projectId?: string | null; labels?: string[] }): TransactItem[];
  /** Whether the project has an active goal (the goal bonus of its issues' scores). */
  goalActive(projectId: string): Promise<boolean>;
}

/** The answer when a project or label went away between the check and the write. */
const REFERENCE_GONE = "A project or label of this issue was just deleted; check it and retry";

export type { IssueSummary } from "./schemas.js";

export class IssueService {
  constructor(
    private readonly store: IssueStore,
    /** Lists and counts of issues. */
    private readonly queries: IssueQueries,
    private readonly references: IssueReferences,
    private readonly moves: IssueMoves,
  ) {}

  /** Creates an issue in `triage` (or the given status) after checking every reference. */
  async createIssue(input: CreateIssueBody): Promise<StoredIssue> {
    const parentId = input.parentId ? (await this.parentFor(null, input.parentId)).issue.id : null;
    const projectId = input.projectId ? await this.checkedProject(input.projectId) : null;
    const labels = input.labels ? await this.checkedLabels(input.labels) : [];
    const checks = this.references.existenceChecks({ projectId, labels });
    const fields = newIssue({
      ...input,
      parentId,
      projectId,
      labels,
      hypothesis: input.hypothesis ? { ...input.hypothesis, prediction: input.hypothesis.prediction ?? null } : null,
    });
    const goalActive = await this.goalBonusOf(projectId);
    try {
      return await this.store.create(fields, () => new Date(), checks, { goalActive });
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new ConflictError(REFERENCE_GONE, { cause: error });
      throw error;
    }
  }

  /** By `iss_…` id or `KZN-<number>`; 404 for anything else or nothing found (deleted included). */
  getIssue(ref: string): Promise<StoredIssue> {
    return this.store.require(ref);
  }

  /**
   * An issue with its parent, children, relations and latest signals: one read for an `iss_…` id
   * (its partition holds all but the parent), one more for a parent, one more for `KZN-<n>`.
   */
  async getIssueDetail(ref: string) {
    const id = ISSUE_ID.test(ref) ? ref : (await this.store.getByRef(ref))?.issue.id;
    const aggregate = id ? await this.store.getAggregate(id) : undefined;
    if (!aggregate) throw new NotFoundError(`Issue ${ref} not found`);
    const { issue } = aggregate.stored;
    const parent = issue.parentId ? await this.store.get(issue.parentId) : undefined;
    return {
      version: aggregate.stored.version,
      detail: {
        ...issue,
        parent: parent ? summaryItem(parent.issue) : null,
        children: aggregate.children,
        relations: relationsFromEdges(aggregate.relationEdges, issue.id),
        signals: aggregate.stored.recentSignals.slice(0, RECENT_SIGNALS),
      },
    };
  }

  /**
   * Applies a partial update under the state machine and the hierarchy rules. With `If-Match`
   * the write happens only at that version (else 412); without, a concurrent change makes it
   * read again and reapply, so no write is lost.
   */
  async updateIssue(ref: string, patch: UpdateIssueBody, expected: ExpectedVersions | undefined): Promise<StoredIssue> {
    return retryRaces(async () => {
      const current = await this.getIssue(ref);
      checkVersion(expected, current.version);
      const changes = await this.changesFor(current, patch);
      if (Object.keys(changes).length === 0) return current;
      const goalActive =
        changes.projectId !== undefined ? { goalActive: await this.goalBonusOf(changes.projectId) } : {};
      const { stored, writes } = await this.moves.prepare(
        { current, changes, by: "patch", internals: goalActive },
        new Date(),
      );
      const checks = this.references.existenceChecks({ projectId: changes.projectId, labels: changes.labels });
      await this.writeAt(writes, expected, checks);
      return stored ?? current;
    });
  }

  /**
   * Soft-deletes: 204 once, 404 after; an issue with children is kept (409) until they move. The
   * issues it blocked stop waiting on it, and a dispatch working it is released.
   */
  async deleteIssue(ref: string, expected: ExpectedVersions | undefined): Promise<void> {
    await retryRaces(async () => {
      const current = await this.getIssue(ref);
      checkVersion(expected, current.version);
      const children = await this.queries.countChildren(current.issue.id);
      if (children > 0) {
        throw new ConflictError(
          `Issue ${current.issue.identifier} has ${children} child issues; move or delete them first`,
        );
      }
      const { writes } = await this.moves.prepare({ current, by: "delete" }, new Date());
      await this.writeAt(writes, expected);
    });
  }

  /** A page of issues; `projectIds` (a key narrowed to projects) keeps only those projects' (docs/security.md#projects). */
  async listIssues(query: ListIssuesQuery, projectIds: readonly string[] | null = null) {
    // An iss_ id needs no lookup: an unknown parent's listing is simply empty. KZN-<n> does.
    let parentId = query.parentId;
    if (parentId !== undefined && !ISSUE_ID.test(parentId)) {
      const parent = await this.getIssue(parentId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (!parent) return { issues: [], total: 0 };
      parentId = parent.issue.id;
    }
    const request = {
      statuses: query.status,
      types: query.type,
      priority: query.priority,
      projectId: query.projectId,
      projectIds: projectIds ?? undefined,
      parentId,
      label: query.label,
      fingerprint: query.fingerprint,
      q: query.q,
      sort: query.sort,
      offset: pageOffset(query),
      limit: query.limit,
    };
    const listed = await this.queries.list(request);
    if (query.label === undefined || listed.total > 0) return listed;
    // Labels match in any case (docs/api.md#issues), and issues carry the label's own spelling: a
    // filter that found nothing as written is tried once more under that spelling, if it differs.
    const [stored] = (await this.references.resolveLabels([query.label])).found;
    return stored === undefined || stored === query.label ? listed : this.queries.list({ ...request, label: stored });
  }

  /** The goal bonus an issue in `projectId` scores (none outside a project). */
  private async goalBonusOf(projectId: string | null | undefined): Promise<boolean> {
    return projectId ? this.references.goalActive(projectId) : false;
  }

  private async changesFor(current: StoredIssue, patch: UpdateIssueBody): Promise<Partial<NewIssue>> {
    const { issue } = current;
    const changes: Partial<NewIssue> = {};
    for (const field of [
      "title",
      "description",
      "type",
      "priority",
      "agentSummary",
      "commits",
      "pullRequests",
    ] as const) {
      if (patch[field] !== undefined && JSON.stringify(patch[field]) !== JSON.stringify(issue[field])) {
        Object.assign(changes, { [field]: patch[field] });
      }
    }
    if (patch.hypothesis !== undefined) {
      const hypothesis = patch.hypothesis
        ? { ...patch.hypothesis, prediction: patch.hypothesis.prediction ?? null }
        : null;
      if (JSON.stringify(hypothesis) !== JSON.stringify(issue.hypothesis)) changes.hypothesis = hypothesis;
    }
    // The move checks it against the state machine and sets `completedAt`.
    if (patch.status !== undefined && patch.status !== issue.status) changes.status = patch.status;
    if (patch.parentId !== undefined) {
      const parentId = patch.parentId === null ? null : (await this.parentFor(current, patch.parentId)).issue.id;
      if (parentId !== issue.parentId) changes.parentId = parentId;
    }
    if (patch.projectId !== undefined) {
      const projectId = patch.projectId === null ? null : await this.checkedProject(patch.projectId);
      if (projectId !== issue.projectId) changes.projectId = projectId;
    }
    if (patch.labels !== undefined) {
      const labels = await this.checkedLabels(patch.labels);
      if (JSON.stringify(labels) !== JSON.stringify(issue.labels)) changes.labels = labels;
    }
    return changes;
  }

  /** The parent `ref` names for `child` (null when creating), under the one-level rule. */
  private async parentFor(child: StoredIssue | null, ref: string): Promise<StoredIssue> {
    const parent = await this.getIssue(ref).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw fieldError("parentId", `issue ${ref} does not exist`);
      throw error;
    });
    if (child && parent.issue.id === child.issue.id) {
      throw fieldError("parentId", "an issue cannot be its own parent");
    }
    if (parent.issue.parentId !== null) {
      throw fieldError("parentId", `${parent.issue.identifier} is itself a child; issues nest one level deep`);
    }
    if (child && (await this.queries.countChildren(child.issue.id)) > 0) {
      throw fieldError("parentId", `${child.issue.identifier} has children, so it cannot become a child`);
    }
    return parent;
  }

  private async checkedProject(id: string): Promise<string> {
    if (!(await this.references.projectExists(id))) throw fieldError("projectId", `project ${id} does not exist`);
    return id;
  }

  /** The labels under their canonical names; 400 naming any that do not exist. */
  private async checkedLabels(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const { found, missing } = await this.references.resolveLabels(names);
    if (missing.length > 0)
      throw fieldError("labels", `unknown label${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
    return found;
  }

  /**
   * Writes under the version read, with `checks` last; with If-Match a lost race is a 412, not a
   * retry, and a failed check is a 409 either way.
   */
  private async writeAt(
    writes: TransactItem[],
    expected: ExpectedVersions | undefined,
    checks: TransactItem[] = [],
  ): Promise<void> {
    try {
      await this.store.transact([...writes, ...checks]);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (error.reasons.slice(writes.length).includes("ConditionalCheckFailed")) {
        throw new ConflictError(REFERENCE_GONE, { cause: error });
      }
      if (expected !== undefined) throw new PreconditionFailedError();
      throw error;
    }
  }
}
