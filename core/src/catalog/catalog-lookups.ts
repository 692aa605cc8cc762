/**
 * @module catalog/catalog-lookups — what the rest of Kaizen reads of the catalog: labels by name, projects
 * and goals by id, whether a project has an active goal, and the checks an issue or template write
 * adds so that it holds only while the project and labels it names still exist. Reads only: the
 * functions that show or reference catalog records carry none of the catalog's writes (./catalog-service.ts).
 */
import type { Db, TransactItem } from "../db/db.js";
import { ListingIndex } from "../db/listing-index.js";
import { foldLabelName, GOAL_ID, GOAL_LISTINGS, labelKey, labelNameKey, listingName, PROJECT_ID } from "./keys.js";
import { GOAL_KIND, labelExistsCheck, PROJECT_KIND, projectExistsCheck } from "./label-store.js";
import { recordOf } from "./record-store.js";
import type { Goal, Label, Project } from "./schemas.js";
import type { SourceRouting } from "./source-store.js";

/** Label names split into those a label holds (as the label spells them) and those none does. */
export interface ResolvedLabels {
  /** Canonical stored names, in the order given, each once. */
  found: string[];
  /** Given names no label holds, in the order given, each once. */
  missing: string[];
}

/**
 * @example const { missing } = await catalogLookups(deps).resolveLabels(["bug"]);
 */
export class CatalogLookups {
  private readonly goals: ListingIndex;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.goals = new ListingIndex(db, GOAL_LISTINGS);
  }

  /**
   * Which of `names` are labels (matched case-insensitively, answered with the label's own
   * spelling) and which are not: one strongly consistent BatchGet of the name claims.
   * @example await lookups.resolveLabels(["BUG", "nope"]) // { found: ["bug"], missing: ["nope"] }
   */
  async resolveLabels(names: string[]): Promise<ResolvedLabels> {
    if (names.length === 0) return { found: [], missing: [] };
    const claims = await this.nameClaims(names);
    const held = new Map(claims.map((claim) => [foldLabelName(String(claim.name)), String(claim.name)]));
    const canonical = new Set<string>();
    const missing = new Set<string>();
    for (const name of names) {
      const stored = held.get(foldLabelName(name));
      if (stored === undefined) missing.add(name);
      else canonical.add(stored);
    }
    return { found: [...canonical], missing: [...missing] };
  }

  /** The labels holding the given names (any case), with their colours: two reads. */
  async labelsNamed(names: string[]): Promise<Label[]> {
    if (names.length === 0) return [];
    const claims = await this.nameClaims(names);
    const found = await this.db.batchGet(
      claims.map((claim) => labelKey(String(claim.labelId))),
      { consistent: true },
    );
    return found.map((item) => ({
      id: String(item.id),
      name: String(item.name),
      color: String(item.color),
      createdAt: String(item.createdAt),
    }));
  }

  /** The name claims of the labels holding `names` (any case): one strongly consistent BatchGet. */
  private nameClaims(names: string[]) {
    // One key per name as folded: "Bug" and "bug" name one label, answered once.
    const keys = new Map(names.map((name) => [foldLabelName(name), labelNameKey(name)]));
    return this.db.batchGet([...keys.values()], { consistent: true });
  }

  /**
   * Transaction items an issue write adds when it sets a project or labels: they hold only while
   * each still exists and is not being deleted.
   */
  existenceChecks(references: { projectId?: string | null; labels?: string[] }): TransactItem[] {
    return [
      ...(references.projectId ? [projectExistsCheck(references.projectId, this.now())] : []),
      ...(references.labels ?? []).map((name) => labelExistsCheck(name, this.now())),
    ];
  }

  /** A project by id, or null when there is none (for what shows a project beside something else). */
  async findProject(id: string): Promise<Project | null> {
    if (!PROJECT_ID.test(id)) return null;
    const item = await this.db.get(PROJECT_KIND.key(id), { consistent: true });
    return item ? recordOf(PROJECT_KIND, item).record : null;
  }

  /** The projects of `ids` that exist, in the order given: one strongly consistent BatchGet (none for no ids). */
  async findProjects(ids: readonly string[]): Promise<Project[]> {
    const wanted = [...new Set(ids)].filter((id) => PROJECT_ID.test(id));
    if (wanted.length === 0) return [];
    const items = await this.db.batchGet(
      wanted.map((id) => PROJECT_KIND.key(id)),
      { consistent: true },
    );
    return items.map((item) => recordOf(PROJECT_KIND, item).record);
  }

  async findGoal(id: string): Promise<Goal | null> {
    if (!GOAL_ID.test(id)) return null;
    const item = await this.db.get(GOAL_KIND.key(id), { consistent: true });
    return item ? recordOf(GOAL_KIND, item).record : null;
  }

  async projectExists(id: string): Promise<boolean> {
    return (await this.findProject(id)) !== null;
  }

  /**
   * Whether a project has an active goal (one of its goals, by the goal's `projectId`, is
   * `active`): the issues of such a project score the goal bonus (docs/api.md#score). Its goals'
   * listing entries answer it; the goals themselves are not read.
   */
  /**
   * What a signal that names project `projectId` itself is routed by (docs/api.md#what-a-signal-does):
   * its automation and goal bonus, read beside each other; null when there is no such project.
   */
  async routingOf(projectId: string): Promise<SourceRouting | null> {
    const [project, goalActive] = await Promise.all([this.findProject(projectId), this.goalActive(projectId)]);
    return project ? { projectId, automation: project.automation, goalActive } : null;
  }

  async goalActive(projectId: string): Promise<boolean> {
    const { total } = await this.goals.walk(
      listingName("project", projectId),
      [{ attribute: "status", value: "active", match: "equals" }],
      { order: "desc", offset: 0, limit: 1 },
    );
    return total > 0;
  }
}
